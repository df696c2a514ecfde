"""The state a recording describes at a moment: events, and each bookmaker's markets per event.

Built the way the recording's feed client built its book: a snapshot installs the events it
lists, then every message is applied in order. Kept as the JSON the service sent (markets,
prices at the book's own precision, urls), so REST answers carry the recorded text unchanged.
"""

from __future__ import annotations

from typing import Any

from oddstui.recording.records import FeedMessage, Snapshot
from oddstui.replay.drop_history import DropHistory

JsonObject = dict[str, Any]
ODDS_FIELDS = ("bookmakers", "urls", "bookmakerIds")
WITH_MARKETS = ("created", "updated")


class ReplayState:
    def __init__(self, complete_markets: bool = True) -> None:
        self.complete_markets = complete_markets
        self.events: dict[int, JsonObject] = {}
        self.books: dict[int, dict[str, list[Any]]] = {}
        self.urls: dict[int, dict[str, Any]] = {}
        self.book_ids: dict[int, dict[str, Any]] = {}
        self.seq = 0  # the latest odds message applied
        self.time = 0.0
        """The latest record's time: the replay clock when the state last changed."""
        self.versions: dict[int, int] = {}
        """Event id -> a count that grows whenever the event or its prices change."""
        self._where: dict[int, tuple[str, str, str]] = {}  # the feed asks for each message
        self.drops = DropHistory()
        self.closing: dict[int, dict[str, list[Any]]] = {}
        """Event id -> its bookmakers' markets as they stood when it went live (kickoff)."""

    # -- changes -----------------------------------------------------------------------------
    def install(self, snapshot: Snapshot) -> None:
        """The events it lists take its event fields; those in its odds take its bookmakers."""
        self.time = max(self.time, snapshot.time)
        for event in snapshot.events:
            event_id = event.get("id")
            if isinstance(event_id, int):
                self.events[event_id] = dict(event)
                self._where.pop(event_id, None)
                self._changed(event_id)
        for record in snapshot.odds:
            event_id = record.get("id")
            if not isinstance(event_id, int):
                continue
            if event_id not in self.events:
                self.events[event_id] = {k: v for k, v in record.items() if k not in ODDS_FIELDS}
                self._where.pop(event_id, None)
            books = record.get("bookmakers")
            self.books[event_id] = dict(books) if isinstance(books, dict) else {}
            for bookie, markets in self.books[event_id].items():
                self.drops.quoted(snapshot.time, event_id, bookie, markets, created=False)
            self._changed(event_id)
            self.urls[event_id] = dict(record.get("urls") or {})
            self.book_ids[event_id] = dict(record.get("bookmakerIds") or {})

    def apply(self, record: FeedMessage) -> None:
        message = record.message
        self.time = max(self.time, record.time)
        kind = message.get("type")
        event_id = _event_id(message.get("id"))
        if event_id is None:
            return
        if record.seq is not None:
            self.seq = max(self.seq, record.seq)
        self._changed(event_id)
        bookie = message.get("bookie")
        if kind in WITH_MARKETS and isinstance(bookie, str):
            markets = message.get("markets")
            markets = markets if isinstance(markets, list) else []
            books = self.books.setdefault(event_id, {})
            if self.complete_markets or bookie not in books:
                books[bookie] = markets
            else:  # the public service: markets merge by name
                merged = {m.get("name"): m for m in books[bookie] if isinstance(m, dict)}
                merged.update({m.get("name"): m for m in markets if isinstance(m, dict)})
                books[bookie] = list(merged.values())
            if "url" in message:
                self.urls.setdefault(event_id, {})[bookie] = message["url"]
            self.drops.quoted(record.time, event_id, bookie, markets, kind == "created")
        elif kind in ("deleted", "no_markets") and isinstance(bookie, str):
            self.books.get(event_id, {}).pop(bookie, None)
            self.drops.withdrawn(record.time, event_id, bookie)
        elif kind in ("score", "status"):
            event = self.events.get(event_id)
            if event is None:
                return
            if isinstance(message.get("scores"), dict):
                event["scores"] = message["scores"]
            if kind == "status" and isinstance(message.get("status"), str):
                if message["status"] == "live" and event.get("status") == "pending":
                    self.closing[event_id] = dict(self.books.get(event_id, {}))
                event["status"] = message["status"]
                self._where.pop(event_id, None)
                if message["status"] != "live":
                    event.pop("clock", None)
                if message["status"] in ("settled", "cancelled"):
                    self.drops.forget(event_id)

    def _changed(self, event_id: int) -> None:
        self.versions[event_id] = self.versions.get(event_id, 0) + 1

    # -- answers -----------------------------------------------------------------------------
    def odds_record(self, event_id: int, bookmakers: list[str]) -> JsonObject:
        """GET /odds's body for the event (it must be in `events`)."""
        books = self.books.get(event_id, {})
        urls = self.urls.get(event_id, {})
        ids = self.book_ids.get(event_id, {})
        wanted = [b for b in bookmakers if b in books]
        record = {k: v for k, v in self.events[event_id].items() if k != "clock"}
        record["bookmakerIds"] = {b: ids[b] for b in wanted if b in ids}
        record["urls"] = {b: urls.get(b) for b in wanted}
        record["bookmakers"] = {b: books[b] for b in wanted}
        return record

    def where(self, event_id: int) -> tuple[str, str, str]:
        found = self._where.get(event_id)
        if found is not None:
            return found
        event = self.events.get(event_id)
        if event is None:
            return ("", "", "")
        found = (
            _slug(event.get("sport")),
            _slug(event.get("league")),
            str(event.get("status", "")),
        )
        self._where[event_id] = found
        return found


def _event_id(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def _slug(value: Any) -> str:
    return str(value.get("slug", "")) if isinstance(value, dict) else ""
