"""What the words around a published comparison say its figure is per: idle or active power, one disk of
one side against the other whole, active disks. Pure."""

from __future__ import annotations

import re

_EACH = re.compile(r"\beach\s+(?:ssd|hdd|disk|drive)\b[^.;]*\bthan\s+(?:all|the)\b", re.IGNORECASE)
ACTIVE_BASIS = re.compile(r"\b(?:per|/)\s*active\s+(?:disk|drive)|\bactive\s+(?:disks|drives)\b", re.IGNORECASE)
_IDLE = re.compile(r"\b(?:while|when)\s+idle\b|\bidle\s+power\b", re.IGNORECASE)


OWN_ENDS = re.compile(r"\bthan\b|\band\b|[,;]", re.IGNORECASE)
_ACTIVE_POWER = re.compile(r"\b(?:when|while)\s+(?:active|busy|under\s+load)\b|\bactive\s+power\b", re.IGNORECASE)


def stated_basis(metric: str, sentence: str, paragraph: str, own: str | None = None) -> tuple[str, str | None, str | None]:
    """What the words around "N percent more" say the figure is per: idle power ("… while idle"), one
    disk of one side against the other whole ("each SSD … than all 24 HDDs"), active disks. `own`: the
    words right after the figure, which say its basis before the rest of the sentence does."""
    if metric == "active_power" and not _ACTIVE_POWER.search(own or "") and (_IDLE.search(own or "") or _IDLE.search(sentence)):
        return "idle_power", None, None  # "59 percent less power while idle"; never "60 … when active, 59 … when idle"
    if _EACH.search(sentence) and metric in ("throughput_mb_per_s", "total_iops", "achieved_iops", "log_iops"):
        return f"{metric}_per_disk", metric, "all"
    if metric.endswith("_per_disk"):
        return metric, None, "active" if ACTIVE_BASIS.search(paragraph) else None
    return metric, None, None
