"""The Bets screen's rows: one per leg, its cells, the summary, and the export records.

No textual here (rich `Text` only), so the cells are tested directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from rich.text import Text

from oddstui.betlog.bets import Bet, BetLeg, bet_records
from oddstui.book.formats import OddsFormat
from oddstui.tui.kit.columns import Column
from oddstui.tui.kit.prices import price_text
from oddstui.tui.text import plain

BET_COLUMNS: list[Column] = [
    Column("bet", "Bet", 4),
    Column("event", "Event", 13, grow=18),
    Column("line", "Market", 10, grow=8),
    Column("side", "Side", 5),
    Column("price", "Price", 6, justify="right"),
    Column("result", "Result", 8),
    Column("pnl", "P&L", 8, justify="right"),
    Column("clv", "CLV", 8, justify="right"),
    Column("book", "Book", 10, priority=1, grow=6),
    Column("stake", "Stake", 7, priority=1, justify="right"),
    Column("placed", "Placed", 11, priority=2),
    Column("close", "Close", 6, priority=3, justify="right"),
    Column("board", "From", 9, priority=4),
]


def row_key(bet: Bet, index: int) -> str:
    """A stored bet's leg by id; a bet still pending (the log was locked) by its time."""
    return f"{bet.id}|{index}" if bet.id else f"pending-{bet.placed_at!r}|{index}"


def leg_cells(bet: Bet, index: int, fmt: OddsFormat = "decimal") -> dict[str, Text]:
    leg = bet.legs[index]
    first = index == 0
    return {
        "bet": Text(f"#{bet.id}" if bet.id else "…", style="" if first else "dim"),
        "event": plain(bet.event_name, "" if first else "dim"),
        "line": plain(leg.line_text),
        "side": plain(leg.side),
        "price": Text(price_text(leg.price, fmt), justify="right"),
        "result": result_text(leg),
        "pnl": money(leg.profit),
        "clv": clv_text(bet, index),
        "book": plain(leg.bookmaker),
        "stake": Text(f"{leg.stake:.2f}", justify="right"),
        "placed": Text(datetime.fromtimestamp(bet.placed_at).strftime("%m-%d %H:%M")),
        "close": Text(price_text(leg.close_price, fmt) if leg.close_price else "", justify="right"),
        "board": plain(bet.board, "dim"),
    }


def result_text(leg: BetLeg) -> Text:
    word = leg.result_word
    if leg.settled_by == "hand":
        word += " ✎"  # the trader's, not the score's
    style = "dim" if leg.result is None else "bold" if (leg.result or 0) > 0 else ""
    return Text(word, style=style)


def money(value: float | None) -> Text:
    return Text("" if value is None else f"{value:+.2f}", justify="right")


def clv_text(bet: Bet, index: int) -> Text:
    """The leg's CLV, or why it has none, dimmed (`Bet.clv_text`)."""
    known = bet.legs[index].clv is not None
    return Text(bet.clv_text(index), style="" if known else "dim", justify="right")


def summary(bets: Sequence[Bet]) -> Text:
    """`4 bets · 1 open · P&L +12.30 · staked 400.00 · CLV +1.8% (5 legs)`: fits 80 columns."""
    if not bets:
        return Text("No bets yet: enter on an arbitrage's stake ticket logs one.", style="dim")
    settled = [bet for bet in bets if bet.status == "settled"]
    profit = sum(bet.profit or 0.0 for bet in settled)
    clvs = [leg.clv for bet in bets for leg in bet.legs if leg.clv is not None]
    text = Text(f"{len(bets)} bets · {len(bets) - len(settled)} open · ")
    text.append(f"P&L {profit:+.2f}", "bold")
    text.append(f" · staked {sum(bet.stake for bet in bets):.2f}")
    if clvs:
        text.append(f" · CLV {sum(clvs) / len(clvs) * 100:+.1f}% ({len(clvs)} legs)")
    return text


def export_records(bets: Sequence[Bet]) -> list[dict[str, Any]]:
    """What `e` writes: one record per leg (`betlog.bets.bet_records`, documented in the README)."""
    return bet_records(list(bets))
