"""The `esrpdb` command line: argument parsing and rendering only, over library functions."""
