"""The catalogue's login roles, by name: part of the data model, as the tables are.

`db.roles` creates them and the migrations grant them; the ad-hoc SQL path checks a connection
against the server roles that would let a reader leave the catalogue.
"""

OWNER_ROLE = "esrpdb_owner"  # owns the tables, migrates and ingests
READER_ROLE = "esrpdb_reader"  # can only SELECT the catalogue
ADMIN_ROLE = "postgres"  # the embedded server's bootstrap superuser; used only to bootstrap

# Server roles that would let a reader escape the catalogue (files, programs, other sessions).
DANGEROUS_ROLES = (
    "pg_execute_server_program",
    "pg_read_server_files",
    "pg_write_server_files",
    "pg_signal_backend",
)
