"""Which PostgreSQL to talk to, and getting it ready: embedded server, engine, migrations."""
