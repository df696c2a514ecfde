"""Which events the derived lists hold: only those whose prices can still be taken."""

from __future__ import annotations

#: The statuses of a listed event: a settled or cancelled match leaves every list at once.
LISTED_STATUSES = frozenset({"pending", "live"})


def is_listed(status: str | None) -> bool:
    return status in LISTED_STATUSES
