"""Parsers (pure: bytes in, typed records out) and the loader that writes them."""
