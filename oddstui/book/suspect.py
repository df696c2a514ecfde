"""Is an edge (an arbitrage's profit or a value bet's EV) to be believed: the one suspect rule.

The desk's boards, their exports, alerts and the backtest all read it. A large arbitrage or
edge right after a goal is nearly always one bookmaker that has not moved yet: its leg was
quoted before the match changed, and it will be gone (or the bet voided) before the trader can
place it; a leg older than the stale settings is no price to trade either. Such rows are
marked, and hidden by default (`h` shows them).
"""

from __future__ import annotations

from collections.abc import Iterable

#: Profit (or EV) in percent above which a row is marked unless the settings say otherwise.
DEFAULT_SUSPECT_PROFIT = 10.0
#: In play a price is good for seconds: an in-play edge with a leg older than the live stale
#: age divided by this (90 s / 6 = 15 s by default) is a book that has not moved yet.
IN_PLAY_DIVISOR = 6


def suspicion(
    profit: float | None,
    quoted: Iterable[float | None],
    changed_at: float | None,
    threshold: float | None,
    oldest: float | None = None,
    stale_after: float | None = None,
    live: bool = False,
) -> str:
    """Why a row is suspect, in a few words, or "" when it is not.

    `quoted` are the times its legs were quoted and `changed_at` the time of the match's last
    score or status change, both on the service's clock (None when unknown); `threshold` the
    profit above which any row is suspect (None: never on profit alone); `oldest` the oldest
    leg's age and `stale_after` the age (seconds) past which a price is stale; `live` says the
    match is in play, where a leg older than `stale_after / IN_PLAY_DIVISOR` is suspect.
    """
    quoted = list(quoted)
    if changed_at is not None and any(t is not None and t < changed_at for t in quoted):
        return "a leg was quoted before the last score or status change"
    if stale_after is not None and oldest is not None and oldest > stale_after:
        return f"a leg is older than {stale_after:g}s (stale)"
    if live and stale_after is not None and oldest is not None:
        in_play = stale_after / IN_PLAY_DIVISOR
        if oldest > in_play:
            return f"in play, a leg is older than {in_play:g}s"
    if threshold is not None and profit is not None and profit > threshold:
        return f"profit above {threshold:g}%"
    return ""
