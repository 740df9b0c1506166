"""One audit finding: the verdict on a printed figure, with its evidence (file, page, place, quote)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..gather import AuditData
from ..terms import SEVERITY

SHA_PREFIX = 12


@dataclass(frozen=True)
class Finding:
    solution: str | None  # key of the solution the figure is about (None: not attached to one)
    other_solution: str | None  # the other side of a comparison
    kind: str  # "claim", or the name of a claim-free check
    metric: str
    verdict: str  # match | rounding | mismatch | unverifiable
    printed: str | None  # the figure exactly as printed
    recomputed: float | None  # what the data gives, in the printed unit
    relative_difference: float | None  # (printed - recomputed) / recomputed
    explanation: str
    inputs: dict[str, Any]
    file: str | None  # where the figure is printed
    sha256: str | None  # the file's whole SHA-256 (64 hex digits); tables show its first 12
    place: str | None  # figure, table, section or line
    line: int | None
    quote: str | None = None  # the printed words judged: the claim's sentence, the table row, the report's field
    unit: str | None = None
    page: int | None = None  # the page `line` is printed on, for a PDF (citation.py)

    @property
    def sha256_prefix(self) -> str | None:
        """What a person reads in a table: enough digits to tell files apart."""
        return self.sha256[:SHA_PREFIX] if self.sha256 else None

    def sort_key(self) -> tuple:
        return (self.solution is None, self.solution or "", SEVERITY[self.verdict], self.metric,
                self.line if self.line is not None else 10**9, self.kind, self.printed or "", self.explanation)

    def as_dict(self) -> dict[str, Any]:
        return dict(sorted(_stable(asdict(self)).items()))


def _stable(value: Any) -> Any:
    """JSON-ready and reproducible: sorted keys, floats to 12 significant digits."""
    if isinstance(value, float):
        return float(f"{value:.12g}")
    if isinstance(value, dict):
        return {str(k): _stable(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_stable(v) for v in value]
    if value is None or isinstance(value, (str, int, bool)):
        return value
    return str(value)


def evidence(data: AuditData, file_id: int | None) -> dict[str, Any]:
    source = data.files.get(file_id)
    return {"file": source.name if source else None, "sha256": source.sha256 if source else None}
