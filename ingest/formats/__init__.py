"""One package per input format; each package's `__init__` is its face (`FORMAT`, `identify`, `parse`)."""
