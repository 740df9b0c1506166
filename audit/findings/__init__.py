"""The audit's last step: judged figures as findings, each citing the file and place it is printed.

- `claims`: every manifest claim, judged against its candidates (`candidates`, then `judge`);
- `tables`: claim-free checks over the tables documents print (sums, identities, median runs,
  per-disk divisors, captions), reading rows through `table_rows`;
- `consistency`: claim-free checks over runs and solutions (a report's verdict recomputed under
  its version's thresholds, ingest-time warnings, usable against raw capacity);
- `finding`: the `Finding` record every check returns.
"""
