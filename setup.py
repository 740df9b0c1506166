"""The package list, derived from the tree: the repository root is the package `esrpdb`.

Every folder under the root that is a package (holds an `__init__.py`) installs as `esrpdb.<folder>`,
so a new package needs no line here or in pyproject.toml (and an editable install sees a new
top-level folder at once: it maps `esrpdb` onto the root). Everything else about the project
(metadata, dependencies, package data) is in pyproject.toml. The folders that hold no product
code are left out by name, and this file is no module of the package.
"""

import atexit
import shutil
import tempfile
import warnings

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

# Folders of data inside a package (migrations/views_0005/, site/templates/, fixtures/catalog/, …) ship
# as package data (pyproject.toml); setuptools would warn, for each, that it "would be ignored" as a package.
warnings.filterwarnings("ignore", message=r"Package '[\w.]+' is absent from the `packages` configuration")

NOT_SHIPPED = ["tests", "tests.*", "benchmarks", "benchmarks.*", "build", "build.*", "docs", "docs.*"]


def shipped_packages(root: str = ".") -> list[str]:
    """`esrpdb` and every package folder under `root`, as `esrpdb.<folder>[.<sub>…]`."""
    return ["esrpdb", *(f"esrpdb.{name}" for name in find_packages(where=root, exclude=NOT_SHIPPED))]


class BuildPy(build_py):
    """The root's own modules are `esrpdb`'s: its `__init__.py`, not this script."""

    def find_package_modules(self, package, package_dir):
        modules = super().find_package_modules(package, package_dir)
        return [m for m in modules if (m[0], m[1]) != ("esrpdb", "setup")]


def fresh_build_folder() -> str:
    """A build folder of its own for each build, removed after: a module moved or deleted in the tree
    never ships from an earlier build's leftovers (setuptools reuses ./build otherwise)."""
    folder = tempfile.mkdtemp(prefix="esrpdb-build-")
    atexit.register(shutil.rmtree, folder, True)
    return folder


if __name__ == "__main__":  # as setuptools runs it; tests/test_layout.py reads shipped_packages()
    setup(
        package_dir={"esrpdb": "."},
        packages=shipped_packages(),
        cmdclass={"build_py": BuildPy},
        options={"build": {"build_base": fresh_build_folder()}},
    )
