"""A small scripted v3 feed for the faults the built-in service cannot produce.

It is a websockets server on a free loopback port with a tiny odds world of its own:
- `ScriptedWorld` keeps wire-shaped odds records and a global seq; `update()` changes one
  (event, bookmaker) pair and returns the feed message for it.
- GET /v3/odds/multi answers from the world with `X-Service-Seq` (includeSeq), so a real
  `ApiClient` can take snapshots from it.
- Every WebSocket connection runs `script(conn)`, a coroutine the test writes; `conn` offers the
  usual moves (welcome, send a batch, replay since lastSeq, close with a code, go silent).
- `reject(index, request)` may refuse a handshake with any status and headers (401, 429 with
  Retry-After, ...).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response

BOOKMAKERS = ("Bet365", "Pinnacle")
MARKETS = ("ML", "Totals")


def _markets(tick: int) -> list[dict[str, Any]]:
    """A market list whose prices depend on `tick`, so every update really changes something."""
    home = 1.5 + (tick % 97) / 100
    return [
        {
            "name": "ML",
            "updatedAt": "2026-11-21T10:00:00.000Z",
            "odds": [{"home": f"{home:.3f}", "draw": "3.400", "away": f"{home + 1:.3f}"}],
        },
        {
            "name": "Totals",
            "updatedAt": "2026-11-21T10:00:00.000Z",
            "odds": [{"hdp": 2.5, "over": f"{home + 0.1:.2f}", "under": "1.95"}],
        },
    ]


@dataclass
class ScriptedWorld:
    """Events x bookmakers with a global, strictly increasing seq; keeps every message sent."""

    event_ids: tuple[int, ...] = (101, 102, 103)
    seq: int = 1000
    books: dict[tuple[int, str], list[dict[str, Any]]] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)
    snapshots_served: int = 0

    def __post_init__(self) -> None:
        for event in self.event_ids:
            for bookie in BOOKMAKERS:
                self.books[(event, bookie)] = _markets(event)

    def update(self, event_id: int | None = None, bookie: str | None = None) -> dict[str, Any]:
        """Change one pair (round-robin when not given) and return its `updated` message."""
        self.seq += 1
        if event_id is None:
            event_id = self.event_ids[self.seq % len(self.event_ids)]
        if bookie is None:
            bookie = BOOKMAKERS[(self.seq // len(self.event_ids)) % len(BOOKMAKERS)]
        markets = _markets(self.seq)
        self.books[(event_id, bookie)] = markets
        message = {
            "type": "updated",
            "seq": self.seq,
            "timestamp": "2026-11-21T10:00:01.250Z",
            "id": str(event_id) if self.seq % 2 else event_id,  # the public feed sends both
            "bookie": bookie,
            "url": f"https://{bookie.lower()}.example/e/{event_id}",
            "markets": markets,
        }
        self.log.append(message)
        return message

    def since(self, last_seq: int) -> list[dict[str, Any]]:
        """The compacted replay after `last_seq`: each pair's latest message, in seq order."""
        latest: dict[tuple[int, str], dict[str, Any]] = {}
        for message in self.log:
            if message["seq"] > last_seq:
                latest[(int(message["id"]), message["bookie"])] = message
        return sorted(latest.values(), key=lambda m: m["seq"])

    def record(self, event_id: int) -> dict[str, Any]:
        return {
            "id": event_id,
            "home": f"Home {event_id}",
            "away": f"Away {event_id}",
            "homeId": 1,
            "awayId": 2,
            "date": "2026-11-21T12:00:00Z",
            "status": "pending",
            "sport": {"name": "Football", "slug": "football"},
            "league": {"name": "Test League", "slug": "test-league"},
            "scores": {"home": 0, "away": 0, "periods": {}},
            "urls": {b: f"https://{b.lower()}.example/e/{event_id}" for b in BOOKMAKERS},
            "bookmakerIds": {},
            "bookmakers": {b: self.books[(event_id, b)] for b in BOOKMAKERS},
        }

    def welcome(self) -> dict[str, Any]:
        return {
            "type": "welcome",
            "bookmakers": list(BOOKMAKERS),
            "market_filter": list(MARKETS),
            "channels": ["odds"],
            "sport_filter": [],
            "leagues_filter": [],
            "eventIds_filter": [],
            "status_filter": None,
            "seq": self.seq,
        }


@dataclass
class ScriptedConnection:
    """One accepted WebSocket connection, as the script sees it."""

    ws: ServerConnection
    index: int
    query: dict[str, str]
    world: ScriptedWorld
    stopping: asyncio.Event

    @property
    def last_seq(self) -> int | None:
        value = self.query.get("lastSeq")
        return None if value is None else int(value)

    async def send_lines(self, lines: list[str]) -> None:
        await self.ws.send("\n".join(lines))

    async def send(self, *messages: dict[str, Any]) -> None:
        await self.send_lines([json.dumps(m) for m in messages])

    async def welcome(self) -> None:
        await self.send(self.world.welcome())

    async def replay(self) -> None:
        """Welcome, then the compacted replay after lastSeq (if any), as the real feed does."""
        await self.welcome()
        if self.last_seq is not None:
            messages = self.world.since(self.last_seq)
            for start in range(0, len(messages), 50):
                await self.send(*messages[start : start + 50])

    async def after_snapshot(self, count: int = 1) -> None:
        """Wait until the client has been served `count` snapshots in all (and a moment)."""
        while self.world.snapshots_served < count:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)

    async def stream(self, count: int, batch: int = 3, pause: float = 0.005) -> None:
        for _ in range(count // batch):
            await self.send(*[self.world.update() for _ in range(batch)])
            await asyncio.sleep(pause)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await self.ws.close(code, reason)

    async def go_silent(self, seconds: float) -> None:
        """A half-open link: stop reading (so pings get no pong) and stop sending."""
        transport = self.ws.transport
        transport.pause_reading()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stopping.wait(), seconds)
        transport.abort()

    async def wait_closed(self) -> None:
        await self.ws.wait_closed()


Script = Callable[[ScriptedConnection], Awaitable[None]]
Reject = Callable[[int, ServerConnection, Request], Response | None]


class ScriptedServer:
    """`async with ScriptedServer(script) as server:` then point a client at `server.base_url`."""

    def __init__(
        self,
        script: Script,
        *,
        reject: Reject | None = None,
        world: ScriptedWorld | None = None,
        snapshot_delay: float = 0.0,
    ) -> None:
        self.snapshot_delay = snapshot_delay
        #: Snapshots (GET /odds/multi) answered, each after `snapshot_delay`.
        self.snapshots_answered = 0
        """Seconds each snapshot answer is held back (its records and seq are taken first)."""
        self.script = script
        self.reject = reject
        self.world = world or ScriptedWorld()
        self.handshakes: list[float] = []
        """`time.monotonic()` of every WebSocket handshake attempt, accepted or not."""
        self.connections: list[ScriptedConnection] = []
        self._server: Server | None = None
        self._stopping = asyncio.Event()
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v3"

    async def __aenter__(self) -> ScriptedServer:
        self._server = await serve(
            self._handle, "127.0.0.1", 0, process_request=self._process_request
        )
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._server is not None
        self._stopping.set()
        self._server.close()
        await self._server.wait_closed()

    async def _process_request(self, conn: ServerConnection, request: Request) -> Response | None:
        path = urlsplit(request.path)
        if path.path == "/v3/odds/multi":
            response = self._odds_multi(conn, path.query)
            await asyncio.sleep(self.snapshot_delay)
            self.snapshots_answered += 1
            return response
        if path.path != "/v3/ws":
            return conn.respond(404, '{"error": "not found"}')
        self.handshakes.append(time.monotonic())
        if self.reject is not None:
            return self.reject(len(self.handshakes) - 1, conn, request)
        return None

    @property
    def rest_calls(self) -> int:
        return self.world.snapshots_served

    def _odds_multi(self, conn: ServerConnection, query: str) -> Response:
        self.world.snapshots_served += 1
        params = {k: v[0] for k, v in parse_qs(query).items()}
        ids = [int(i) for i in params.get("eventIds", "").split(",") if i]
        body = json.dumps([self.world.record(i) for i in ids if i in self.world.event_ids])
        response = conn.respond(200, body)
        response.headers["Content-Type"] = "application/json"
        response.headers["X-Service-Seq"] = str(self.world.seq)
        return response

    async def _handle(self, ws: ServerConnection) -> None:
        query = {k: v[0] for k, v in parse_qs(urlsplit(ws.request.path).query).items()}
        conn = ScriptedConnection(ws, len(self.connections), query, self.world, self._stopping)
        self.connections.append(conn)
        await self.script(conn)
