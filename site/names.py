"""What a solution is called on the site: its vendor and model, else its title; never its key.

Keys (for documents read without a manifest, `doc-` and a hash) belong in URLs and element ids;
a reader picks systems by name, so every place that shows a solution shows `display_names`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any


def base_name(row: dict[str, Any]) -> str:
    """Vendor and model ("Dell PowerVault MD1220"), the vendor once; else the title, the model, the key."""
    vendor, model = (row.get("vendor") or "").strip(), (row.get("model") or "").strip()
    if model:
        return model if not vendor or model.lower().startswith(vendor.lower()) else f"{vendor} {model}"
    return (row.get("label") or "").strip() or vendor or row["key"]


def display_names(rows: list[dict[str, Any]]) -> dict[str, str]:
    """One distinct name per key: a name two solutions share gets its title added, then a number."""
    names = {r["key"]: base_name(r) for r in rows}
    shared = Counter(names.values())
    for r in rows:
        label = (r.get("label") or "").strip()
        if shared[names[r["key"]]] > 1 and label and label != names[r["key"]]:
            names[r["key"]] = f"{names[r['key']]} ({label})"
    seen: Counter[str] = Counter()
    repeated = Counter(names.values())
    for r in sorted(rows, key=lambda r: r["key"]):
        name = names[r["key"]]
        if repeated[name] > 1:
            seen[name] += 1
            names[r["key"]] = f"{name} #{seen[name]}"
    return names
