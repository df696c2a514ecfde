"""The desk's feed of the intel engine: odds messages applied to the desk's own `OddsBook`, the
change keys it reports handed to `DeskIntel` as the hub does at each flush."""

from __future__ import annotations

from typing import Any

import orjson

from oddstui.api.messages import iter_frame
from oddstui.book.oddsbook import OddsBook
from oddstui.tui.desk.intel_watch import DeskIntel
from tests.backtest.built import ml

EVENT = 7


def _message(bookie: str, markets: list[Any] | None, seq: int) -> bytes:
    """An odds update; None: the bookmaker's odds on the event deleted."""
    kind = "deleted" if markets is None else "updated"
    return orjson.dumps({"type": kind, "seq": seq, "timestamp": "2026-11-21T10:00:00Z",
                         "id": str(EVENT), "bookie": bookie, "markets": markets or []})


def test_the_desk_measures_a_follow_from_its_own_book() -> None:
    book = OddsBook(clock=lambda: 0.0)
    intel = DeskIntel()
    steps: list[tuple[float, str, list[Any] | None]] = [
        (0.0, "Pinnacle", [ml(2.0, 1.9)]), (0.0, "SingBet", [ml(2.0, 1.9)]),
        (0.0, "Soft", [ml(1.95, 1.85)]),
        (10.0, "Pinnacle", [ml(1.8, 2.1)]), (10.0, "SingBet", [ml(1.8, 2.1)]),
        (12.0, "Soft", [ml(1.95, 1.85)]),  # the same prices again: not a change
        (16.0, "Soft", [ml(1.75, 2.05)]),  # follows, 6 s after the move
        (30.0, "Soft", None),  # its odds withdrawn
    ]
    for seq, (t, bookie, markets) in enumerate(steps, start=1):
        for message in iter_frame(_message(bookie, markets, seq), t):
            assert message is not None
            book.apply(message)
        intel.observe(book, book.take_changes(), t)
    engine = intel.engine
    engine.finish()
    soft = engine.books["Soft"]
    assert soft.follows == [(6.0, True)]
    assert soft.updates == 3  # opened, followed, withdrawn: the repeat is no update
    assert engine.sharp_moves == 1
    assert not engine.lines[(EVENT, "ML", (None, None))].positions.get("Soft")


def test_a_settled_event_is_forgotten() -> None:
    """The session's engine runs all day: once an event is settled, its lines go (and the move
    still open on it is censored there, not left to wait for its horizon)."""
    book = OddsBook(clock=lambda: 0.0)
    intel = DeskIntel()
    steps: list[tuple[float, str, list[Any] | None]] = [
        (0.0, "Pinnacle", [ml(2.0, 1.9)]), (0.0, "SingBet", [ml(2.0, 1.9)]),
        (0.0, "Soft", [ml(1.95, 1.85)]),
        (10.0, "Pinnacle", [ml(1.8, 2.1)]), (10.0, "SingBet", [ml(1.8, 2.1)]),
    ]
    for seq, (t, bookie, markets) in enumerate(steps, start=1):
        for message in iter_frame(_message(bookie, markets, seq), t):
            assert message is not None
            book.apply(message)
        intel.observe(book, book.take_changes(), t)
    engine = intel.engine
    engine.advance(20.0)  # the move has held τ
    assert engine.open_moves() and (EVENT, "ML", (None, None)) in engine.lines
    settled = orjson.dumps({"type": "status", "id": EVENT, "status": "settled",
                            "scores": {"home": 1, "away": 0}})
    for frame in (settled, _message("Soft", None, 9)):  # settled, then its odds deleted
        for message in iter_frame(frame, 30.0):
            assert message is not None
            book.apply(message)
    intel.observe(book, [key for key in book.take_changes() if len(key) > 1], 30.0)
    assert not engine.lines and not engine.open_moves() and not intel._held
    assert engine.books["Soft"].follows == [(20.0, False)]
