"""Canned queries (SQL views created by migrations), listings, guarded ad-hoc SQL, and the claim audit (`audit/`)."""
