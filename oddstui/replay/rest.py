"""The replay's REST side: every route of the interface, checked by the server core (key, hourly
limit, query) and answered from the state at the replay clock.

A recording holds events and odds, not the service's derived lists: value bets, arbitrage bets
and dropping odds are made again from the replayed prices (`replay/derived.py`; a drop only
where the recording holds the opening price). Settlements and grades come from the recorded
status and scores, closing lines from the prices recorded at kickoff (`replay/settling.py`).
What was never recorded (participants, markets, price movements, history) answers 404.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from starlette.routing import BaseRoute
from starlette.routing import Route as StarletteRoute

from oddstui.derived.dropping import DropQuery, check_leagues
from oddstui.recording.manifest import unix
from oddstui.replay.derived import ReplayDerived
from oddstui.replay.dropping import ReplayDropping
from oddstui.replay.settling import ReplaySettling
from oddstui.replay.state import ReplayState
from oddstui.server.accounts import Accounts
from oddstui.server.endpoint import Checked, checked_endpoint
from oddstui.server.errors import BadRequest, NotFound
from oddstui.server.http import BASE
from oddstui.server.params import shown
from oddstui.server.ratelimit import RateLimiter
from oddstui.server.routes import ROUTES
from oddstui.server.routes.odds import SEQ_HEADER

Handler = Callable[[Checked], Any]
SEARCH_RESULTS = 10
EMPTY_LISTS = ("/historical/events",)


class ReplayRest:
    def __init__(self, state: ReplayState, accounts: Accounts, bookmakers: list[str]) -> None:
        self.state = state
        self.accounts = accounts
        self.bookmakers = list(bookmakers)
        self.limiter = RateLimiter()
        self.derived = ReplayDerived(state)
        self.dropping = ReplayDropping(state, self.derived)
        self.settling = ReplaySettling(state)

    def routes(self) -> list[BaseRoute]:
        handlers = self._handlers()
        return [
            StarletteRoute(
                BASE + route.path,
                checked_endpoint(
                    route, self.accounts, self.limiter, handlers.get(route.path, _not_recorded)
                ),
                methods=[route.method],
            )
            for route in ROUTES
        ]

    def _handlers(self) -> dict[str, Handler]:
        handlers: dict[str, Handler] = {
            "/sports": self.sports,
            "/bookmakers": lambda _c: [{"name": name, "active": True} for name in self.bookmakers],
            "/leagues": self.leagues,
            "/bookmakers/selected": self.selected,
            "/bookmakers/selected/select": self.select,
            "/bookmakers/selected/clear": self.clear,
            "/events": self.events,
            "/events/live": self.live,
            "/events/search": self.search,
            "/events/{id}": lambda c: self._event(c.path["id"], "id"),
            "/odds": self.odds,
            "/odds/multi": self.odds_multi,
            "/value-bets": self.value_bets,
            "/arbitrage-bets": self.arbitrage_bets,
            "/dropping-odds": self.dropping_odds,
            "/settlements": self.settling.settlements,
            "/settlements/grade": self.settling.grade,
            "/historical/closing-lines": self.settling.closing_lines,
        }
        handlers.update({path: lambda _c: [] for path in EMPTY_LISTS})
        return handlers

    # -- catalog -------------------------------------------------------------------------------
    def sports(self, _checked: Checked) -> list[dict[str, Any]]:
        found: dict[str, dict[str, Any]] = {}
        for event in self.state.events.values():
            sport = event.get("sport")
            if isinstance(sport, dict) and sport.get("slug") not in found:
                found[str(sport.get("slug"))] = sport
        return list(found.values())

    def leagues(self, checked: Checked) -> list[dict[str, Any]]:
        slug = self._sport_slug(checked.q["sport"])
        counts: dict[str, int] = {}
        names: dict[str, Any] = {}
        for event in self._of_sport(slug):
            league = event.get("league")
            if isinstance(league, dict):
                key = str(league.get("slug"))
                counts[key] = counts.get(key, 0) + 1
                names[key] = league.get("name")
        return [{"name": names[k], "slug": k, "eventsCount": n} for k, n in counts.items()]

    def selected(self, checked: Checked) -> dict[str, Any]:
        assert checked.account is not None
        names = checked.account.selection
        return {"bookmakers": names, "count": len(names)}

    def select(self, checked: Checked) -> dict[str, Any]:
        assert checked.account is not None
        names: list[str] = checked.q["bookmakers"]
        invalid = [name for name in names if name not in self.bookmakers]
        if invalid:
            raise BadRequest(
                f"bookmakers: not in this recording: {', '.join(shown(n) for n in invalid[:5])}",
                invalidBookmakers=invalid,
            )
        names = self.accounts.select(checked.account, names)
        return {"bookmakers": names, "count": len(names)}

    def clear(self, checked: Checked) -> dict[str, Any]:
        assert checked.account is not None
        names = self.accounts.clear(checked.account, time.time())
        return {"bookmakers": names, "count": len(names)}

    # -- events --------------------------------------------------------------------------------
    def events(self, checked: Checked) -> list[dict[str, Any]]:
        q = checked.q
        found = list(self._of_sport(self._sport_slug(q["sport"])))
        if q["league"]:
            found = [e for e in found if _slug(e.get("league")) == q["league"]]
        if q["status"]:
            found = [e for e in found if e.get("status") in set(q["status"])]
        start, end = q["from"], q["to"]
        if start is not None or end is not None:
            found = [e for e in found if _within(e.get("date"), start, end)]
        found.sort(key=lambda e: (str(e.get("date", "")), e.get("id", 0)))
        return found[q["skip"] : q["skip"] + q["limit"]]

    def live(self, checked: Checked) -> list[dict[str, Any]]:
        slug = self._sport_slug(checked.q["sport"]) if checked.q["sport"] else None
        found = [
            e
            for e in self.state.events.values()
            if e.get("status") == "live" and (slug is None or _slug(e.get("sport")) == slug)
        ]
        found.sort(key=lambda e: (str(e.get("date", "")), e.get("id", 0)))
        return found

    def search(self, checked: Checked) -> list[dict[str, Any]]:
        words = str(checked.q["query"]).casefold().split()
        found = []
        for event in self.state.events.values():
            text = (
                " ".join(str(event.get(k, "")) for k in ("home", "away")).casefold()
                + " "
                + str((event.get("league") or {}).get("name", "")).casefold()
            )
            if all(word in text for word in words):
                found.append(event)
        return found[:SEARCH_RESULTS]

    # -- odds ----------------------------------------------------------------------------------
    def odds(self, checked: Checked) -> dict[str, Any]:
        books = self._bookmakers(checked.q["bookmakers"])
        event_id = self._event(checked.q["eventId"], "eventId")["id"]
        body = self.state.odds_record(event_id, books)
        self._seq_header(checked)
        return body

    def odds_multi(self, checked: Checked) -> list[dict[str, Any]]:
        books = self._bookmakers(checked.q["bookmakers"])
        ids = checked.q["eventIds"]
        missing = [i for i in ids if i not in self.state.events]
        if missing:
            raise NotFound(f"eventIds: no event with id {', '.join(map(str, missing))}")
        body = [self.state.odds_record(i, books) for i in ids]
        self._seq_header(checked)
        return body

    def _seq_header(self, checked: Checked) -> None:
        # Handlers never await: the body and this seq describe the same replayed state.
        if checked.q["includeSeq"]:
            checked.headers[SEQ_HEADER] = str(self.state.seq)

    # -- derived -------------------------------------------------------------------------------
    def value_bets(self, checked: Checked) -> list[dict[str, Any]]:
        q = checked.q
        (bookmaker,) = self._bookmakers([q["bookmaker"]])
        sport = self._sport_slug(q["sport"]) if q["sport"] else None
        if q["league"] and sport is None:
            raise BadRequest("league: requires sport")
        league = q["league"] or None
        if league is not None and not any(
            _slug(e.get("league")) == league for e in self._of_sport(str(sport))
        ):
            raise BadRequest(f"league: no events of league {shown(league)} in this recording")
        return self.derived.value_bets(bookmaker, sport, league, q["includeEventDetails"])

    def arbitrage_bets(self, checked: Checked) -> list[dict[str, Any]]:
        q = checked.q
        books = self._bookmakers(q["bookmakers"])
        return self.derived.arbitrage_bets(books, q["limit"], q["includeEventDetails"])

    def dropping_odds(self, checked: Checked) -> list[dict[str, Any]]:
        q = checked.q
        assert checked.account is not None
        sport = self._sport_slug(q["sport"]) if q["sport"] else None
        check_leagues(q["league"], q["leagues"], sport)
        leagues = [q["league"]] if q["league"] else list(q["leagues"] or [])
        held = {_slug(e.get("league")) for e in self.state.events.values()}
        for league in leagues:
            if league not in held:
                name = "league" if q["league"] else "leagues"
                raise BadRequest(f"{name}: no events of league {shown(league)} in this recording")
        return self.dropping.dropping_odds(DropQuery.of(q, sport, leagues))

    # -- lookups -------------------------------------------------------------------------------
    def _event(self, event_id: int, name: str) -> dict[str, Any]:
        event = self.state.events.get(event_id)
        if event is None:
            raise NotFound(f"{name}: no event with id {event_id} in this recording")
        return event

    def _bookmakers(self, names: list[str]) -> list[str]:
        unknown = [n for n in names if n not in self.bookmakers]
        if unknown:
            raise BadRequest(
                f"bookmakers: not in this recording: {', '.join(shown(n) for n in unknown[:5])}"
            )
        return names

    def _sport_slug(self, text: str) -> str:
        wanted = str(text).strip().casefold()
        for sport in self.sports(Checked(None, {}, {})):
            if wanted in (str(sport.get("slug", "")).casefold(), str(sport.get("name")).casefold()):
                return str(sport.get("slug"))
        raise BadRequest(f"sport: no events of sport {shown(text)} in this recording")

    def _of_sport(self, slug: str) -> list[dict[str, Any]]:
        return [e for e in self.state.events.values() if _slug(e.get("sport")) == slug]


def _not_recorded(checked: Checked) -> Any:
    raise NotFound("not in a recording: a replay serves events, odds and settlements only")


def _slug(value: Any) -> str:
    return str(value.get("slug", "")) if isinstance(value, dict) else ""


def _within(date: Any, start: float | None, end: float | None) -> bool:
    try:
        when = unix(str(date))
    except ValueError:
        return False
    return (start is None or when >= start) and (end is None or when <= end)
