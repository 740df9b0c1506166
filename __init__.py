"""esrpdb: the repository root is the package.

Installed, this folder is `esrpdb` and each package folder under it `esrpdb.<folder>` (`ingest/` is
`esrpdb.ingest`): setup.py maps the root onto `esrpdb` and derives the package list from the tree,
so a new folder needs no line anywhere (an editable install sees it at once). The folders import
each other relatively (`from ..schema import runs`), which resolves in the source tree as it does
installed, so editors and structure viewers follow those imports between folders. Nothing here
runs: importing `esrpdb` only names the package.
"""
