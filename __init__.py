"""The source tree as one package, for tools.

Installed, the top-level folders are `esrpdb.ingest`, `esrpdb.schema`, … (pyproject maps them),
and their relative imports (`from ..schema import runs`) resolve there. This file makes the same
imports resolve in the source tree, so editors, type checkers and structure viewers can follow
them between folders. Nothing imports it at run time.
"""
