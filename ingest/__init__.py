"""Files into the catalogue: one package per format under `formats/`, the shared machinery beside it.

Parsers are pure (bytes in, typed records out); `load` writes their records and `pipeline`
runs one transaction per file. README.md here gives the layout and how to add a format.
"""
