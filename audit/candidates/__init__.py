"""The audit's second step: the values the stored data gives for a printed figure, and how else it
could have been computed.

Each rule returns `Candidate`s in the claim's unit, the primary computation first, then
conventions (inputs rounded first, another prefix base, the other disk basis) and other sources
(another run of the trial, a disk count the solution does not have). Missing data raises
`runs.Unverifiable`, naming what is missing. Judging comes after (`audit.judge`), so no module
here imports it:

- `runs`: figures of one run (rates, latencies, power, sizes, ESRP's backup and replay tests);
- `solutions`: figures of a solution (disks, capacity, price, per-dollar and per-watt);
- `context`: the run a figure must come from, and the figures printed beside it;
- `claims`: one claim's candidates, by its metric (per-disk figures and comparisons here).
"""
