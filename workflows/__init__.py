"""Jobs over a whole catalogue, each the library function behind the CLI command of its name.

They sit above the stages they use, so that `db` stays the lowest layer (connection, roles, the
embedded server) and never reaches up into ingest, the queries or the audit:

- `demo`: a throw-away catalogue built from the bundled manifests (ingest), then the headline
  metrics (canned queries) and the audit, read as the read-only role;
- `delete`: the inverse of ingest, in one transaction: what a source file or a solution brought.

As in sqlite-utils (`cli.drop_table` over `Table.drop`), `cli/demo_command.py` and
`cli/delete_command.py` only parse options, call these and render.
"""
