"""How much of the hand-written manifests `esrpdb draft` finds in the four seed documents.

For each seed, the drafts' facts and claims are compared with those of the hand-written manifests
in fixtures/catalog/ that cite the seed: recall of facts (disk count, media, usable capacity,
RAID level, price, power) and of claims (metric and value as printed). A drafted claim is
"invented" when its value is not printed on the line it cites. `python -m tests.drafting_recall`
prints the table that docs/drafting.md holds.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from esrpdb.ingest.draft import draft_manifests

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "fixtures" / "catalog"
DOCUMENTS = ROOT / "fixtures" / "documents"
SEEDS = sorted(DOCUMENTS.glob("0*.txt"))


def _facts(manifest: dict) -> set[tuple[str, str]]:
    facts = set()
    for disk in manifest.get("disks", []):
        if disk.get("role", "active") == "active":
            facts |= {("disk_count", str(disk["count"])), ("media", disk["media"])}
    if "capacity" in manifest:
        facts.add(("usable_capacity", str(manifest["capacity"]["usable"])))
    if manifest["solution"].get("raid_level"):
        facts.add(("raid_level", manifest["solution"]["raid_level"]))
    if "price" in manifest:
        facts.add(("price", str(manifest["price"]["amount"])))
    for key in ("idle_w", "active_w"):
        if key in manifest.get("power", {}):
            facts.add((key, str(manifest["power"][key])))
    return facts


def _claims(manifest: dict, seed: str) -> set[tuple[str, str]]:
    return {(c["metric"], c["value"]) for c in manifest.get("claims", []) if c["document"].endswith(seed)}


def _cites(manifest: dict, seed: str) -> bool:
    text = repr(manifest)
    return seed in text


@dataclass
class Recall:
    seed: str
    facts_found: int
    facts_total: int
    claims_found: int
    claims_total: int
    drafted_claims: int
    invented: list[str]

    @property
    def fact_recall(self) -> float:
        return self.facts_found / self.facts_total if self.facts_total else 1.0

    @property
    def claim_recall(self) -> float:
        return self.claims_found / self.claims_total if self.claims_total else 1.0


def measure(path: Path) -> Recall:
    seed = path.name
    hand = [m for m in (tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted(CATALOG.glob("*.toml")))
            if _cites(m, seed)]
    hand_facts = set().union(*(_facts(m) for m in hand)) if hand else set()
    hand_claims = set().union(*(_claims(m, seed) for m in hand)) if hand else set()
    drafts = [tomllib.loads(text) for _, text in draft_manifests(seed, path.read_bytes(), f"../documents/{seed}")]
    draft_facts = set().union(*(_facts(d) for d in drafts)) if drafts else set()
    drafted = [c for d in drafts for c in d.get("claims", [])]
    draft_claims = {(c["metric"], c["value"]) for c in drafted}
    lines = path.read_text(encoding="utf-8").splitlines()
    invented = [f"{c['metric']} {c['value']} (line {c['line']})" for c in drafted
                if c["value"] not in lines[c["line"] - 1]]
    return Recall(seed, len(hand_facts & draft_facts), len(hand_facts), len(hand_claims & draft_claims),
                  len(hand_claims), len(draft_claims), invented)


def table(results: list[Recall]) -> str:
    rows = ["| seed | facts found | fact recall | claims found | claim recall | drafted claims | invented values |",
            "|---|---|---|---|---|---|---|"]
    for r in results:
        rows.append(f"| {r.seed[:3]} | {r.facts_found} / {r.facts_total} | {r.fact_recall:.0%} | "
                    f"{r.claims_found} / {r.claims_total} | {r.claim_recall:.0%} | {r.drafted_claims} | {len(r.invented)} |")
    facts = sum(r.facts_found for r in results), sum(r.facts_total for r in results)
    claims = sum(r.claims_found for r in results), sum(r.claims_total for r in results)
    rows.append(f"| all | {facts[0]} / {facts[1]} | {facts[0] / facts[1]:.0%} | {claims[0]} / {claims[1]} | "
                f"{claims[0] / claims[1]:.0%} | {sum(r.drafted_claims for r in results)} | "
                f"{sum(len(r.invented) for r in results)} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(table([measure(p) for p in SEEDS]))
