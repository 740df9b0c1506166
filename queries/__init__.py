"""Canned queries (SQL views created by migrations), listings, and guarded ad-hoc SQL."""
