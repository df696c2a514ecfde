"""GET /odds/movements: one line's price history at one bookmaker, from the world's history."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from oddstui.server.errors import BadRequest, NotFound
from oddstui.server.params import parse_number, shown
from oddstui.service.world.model import Event

if TYPE_CHECKING:
    from oddstui.service.world import World


def parse_line(text: str | None) -> tuple[float | None, str | None]:
    """`marketLine`: a number (the hdp), or `label:hdp` for player props; None: first line."""
    if text is None:
        return None, None
    try:
        return parse_number("marketLine", text), None
    except BadRequest:
        pass
    label, sep, hdp = text.rpartition(":")
    if sep and label.strip():
        try:
            return parse_number("marketLine", hdp), label.strip()
        except BadRequest:
            pass
    raise BadRequest(
        f"marketLine: must be a number (the line's hdp) or label:hdp for player props; "
        f"got {shown(text)}"
    )


def movement_history(
    world: World, event: Event, bookie: str, market: str, market_line: str | None
) -> dict[str, Any]:
    hdp, label = parse_line(market_line)
    if bookie not in event.bookmakers:
        raise NotFound(f"bookmaker: {bookie} does not quote event {event.id}")
    ticks = world.movements(event.id, bookie, market, hdp, label)
    if not ticks:
        if market_line is None:
            raise NotFound(f"market: {bookie} has no {shown(market)} market on event {event.id}")
        raise NotFound(
            f"marketLine: {bookie} has no {shown(market)} line {shown(market_line)} "
            f"on event {event.id}"
        )
    line_hdp, line_label = _line_of(world, event, bookie, market, hdp, label)
    wire = [_tick(ts, prices, line_hdp, line_label) for ts, prices in ticks]
    return {
        "eventid": str(event.id),
        "bookmaker": bookie,
        "market": market,
        "opening": wire[0],
        "movements": wire[1:],
    }


def _line_of(
    world: World, event: Event, bookie: str, market: str, hdp: float | None, label: str | None
) -> tuple[float | None, str | None]:
    """The hdp and label of the line the history belongs to (the first line when unasked)."""
    if hdp is not None or label is not None:
        return hdp, label
    for quoted in world.markets_wire(event, bookie):
        if quoted["name"] == market and quoted["odds"]:
            first = quoted["odds"][0]
            return first.get("hdp"), first.get("label")
    return None, None


def _tick(ts: float, prices: dict[str, float], hdp: float | None, label: str | None) -> dict:
    tick: dict[str, Any] = {"timestamp": int(round(ts * 1000))}
    if label is not None:
        tick["label"] = label
    if hdp is not None:
        tick["hdp"] = hdp
    for side, price in prices.items():
        tick[side] = price
    return tick
