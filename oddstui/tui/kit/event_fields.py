"""The text of each table cell, made from an `EventView`; every network string goes through
`plain()`."""

from __future__ import annotations

from datetime import datetime

from rich.text import Text

from oddstui.book import match_clock
from oddstui.tui.desk.state import LIVE, EventView
from oddstui.tui.text import clean, plain

STALE_STYLE = "dim italic"
RED_CARD, RED_CARD_STYLE = "■", "bold red"
STATUS_LABELS = {
    "pending": "upcoming",
    "live": "live",
    "settled": "ended",
    "cancelled": "cancelled",
}
_PERIOD_ORDER = ("p", "map", "ot", "ap")


def start_text(event: EventView) -> Text:
    if event.start is None:
        return Text("–")
    local: datetime = event.start.astimezone()
    return Text(local.strftime("%a %d %H:%M"))


def status_text(event: EventView) -> Text:
    label = STATUS_LABELS.get(event.status, clean(event.status))
    return Text(label, style="bold" if event.status == LIVE else "")


def score_text(event: EventView, feed_trusted: bool = True) -> Text:
    """The score, or nothing before kick-off; dimmed with a `?` when it may not be current."""
    if event.status == "pending" or event.score_home is None or event.score_away is None:
        return Text("")
    shown = f"{event.score_home}-{event.score_away}"
    if event.status == LIVE and not (event.score_fresh and feed_trusted):
        return Text(shown + "?", style=STALE_STYLE)
    return Text(shown, style="bold" if event.status == LIVE else "")


def score_with_cards(event: EventView, feed_trusted: bool = True) -> Text:
    """The score with a red square each side per red card (`■1-0■■`), for a table's cell; a
    score that may not be current (`1-0?`) stands alone, as its cards may not be current either."""
    score = score_text(event, feed_trusted)
    home, away = event.red_cards or (0, 0)
    if not score.plain or score.plain.endswith("?") or not (home or away):
        return score
    cell = Text()
    cell.append(RED_CARD * home, style=RED_CARD_STYLE)
    cell.append_text(score)
    cell.append(RED_CARD * away, style=RED_CARD_STYLE)
    return cell


def red_cards_text(count: int) -> Text:
    """A side's red cards: a red square each (`■■`), a count from three on (`■×3`)."""
    if count <= 0:
        return Text("")
    return Text(RED_CARD * count if count < 3 else f"{RED_CARD}×{count}", style=RED_CARD_STYLE)


#: After a clock the desk only estimates: it stops for play, and the service does not say when.
ESTIMATED = "~"


def clock_text(event: EventView, now: float) -> Text:
    if event.status != LIVE or event.clock is None:
        return Text("")
    clock = event.clock
    text = Text(
        match_clock.clock_text(
            event.sport_slug,
            clock.period,
            clock.played_at(now),
            clock.running,
            clock.status_detail,
            event.periods,
        )
    )
    if text and clock.running and not clock.from_feed and match_clock.clock_stops(event.sport_slug):
        text.append(ESTIMATED, style="dim")
    return text


def detail_text(event: EventView) -> Text:
    if event.status != LIVE:
        return Text("")
    if event.clock is None:
        return Text("live")
    return plain(event.clock.status_detail or f"P{event.clock.period}")


def _period_key(name: str) -> tuple[int, int]:
    for rank, prefix in enumerate(_PERIOD_ORDER):
        if name.startswith(prefix) and name[len(prefix) :].isdigit():
            return (rank, int(name[len(prefix) :]))
        if name == prefix:
            return (rank, 0)
    return (len(_PERIOD_ORDER), 0)


def periods_text(event: EventView) -> Text:
    """Each period's own score in play order (`0-0 1-1 1-1 ot 0-0 pen 3-2`). The wire's `ot` is
    the running total with overtime (v3: the top-level score equals it), so overtime's own
    goals are `ot` less `ft`; `ft` itself is a total and `currentgame` a game's points."""
    periods = event.periods
    shown = []
    for name, (home, away) in sorted(periods.items(), key=lambda item: _period_key(item[0])):
        if name in ("ft", "currentgame"):
            continue
        if name == "ot":
            if "ft" not in periods:
                continue  # overtime's own score cannot be told from a total alone
            ft_home, ft_away = periods["ft"]
            shown.append(f"ot {home - ft_home}-{away - ft_away}")
        elif name == "ap":
            shown.append(f"pen {home}-{away}")
        else:
            shown.append(f"{home}-{away}")
    game = periods.get("currentgame")
    if game is not None:
        shown.append(f"({game[0]}-{game[1]})")
    return Text(" ".join(shown))


def books_text(event: EventView) -> Text:
    if event.bookmaker_count is None:
        return Text("–", justify="right")
    if event.bookmaker_count == 0:
        return Text("none", style="dim", justify="right")
    return Text(str(event.bookmaker_count), justify="right")


def star_text(watched: bool) -> Text:
    return Text("★" if watched else " ")


def event_text(event: EventView) -> Text:
    return plain(event.title)


def league_text(event: EventView) -> Text:
    return plain(event.league_name)
