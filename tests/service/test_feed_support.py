"""Helpers for the feed's socket tests (no tests here): connect, read messages, REST calls.

Every helper talks to a real `oddstui serve` over loopback with the `websockets` client.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.service.conftest import Service

MARKETS = "ML,Spread,Totals"
ODDS_TYPES = ("created", "updated", "deleted", "no_markets")


def feed_url(service: Service, key: str | None = None, **params: Any) -> str:
    query: dict[str, Any] = {"apiKey": service.key if key is None else key}
    query.update({name: value for name, value in params.items() if value is not None})
    if query["apiKey"] == "":
        del query["apiKey"]
    return service.base_url.replace("http://", "ws://", 1) + "/ws?" + urlencode(query)


async def denied(service: Service, key: str | None = None, **params: Any) -> tuple[int, Any]:
    """Open a handshake that must be refused; returns the HTTP status and the JSON body."""
    try:
        async with connect(feed_url(service, key, **params), open_timeout=30, proxy=None):
            pass
    except InvalidStatus as refused:
        response = refused.response
        assert response.headers["content-type"].startswith("application/json")
        return response.status_code, json.loads(response.body or b"null")
    raise AssertionError("the handshake was accepted")


class Feed:
    """A connected client that splits frames into JSON messages."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.frames = 0
        self.welcome: dict[str, Any] = {}
        self._buffer: list[dict[str, Any]] = []

    async def next(self, timeout: float = 30.0) -> dict[str, Any]:
        """The next message; raises TimeoutError, or ConnectionClosed when the feed ends."""
        while not self._buffer:
            frame = await asyncio.wait_for(self.socket.recv(), timeout)
            assert isinstance(frame, str), "the feed sends text frames"
            self.frames += 1
            self._buffer.extend(json.loads(line) for line in frame.split("\n") if line)
        return self._buffer.pop(0)

    async def collect(self, seconds: float) -> list[dict[str, Any]]:
        """Every message that arrives within `seconds` (the connection must stay open)."""
        messages: list[dict[str, Any]] = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                messages.append(await self.next(timeout=left))
            except TimeoutError:
                break
        return messages

    async def until(
        self, done: Callable[[dict[str, Any]], bool], timeout: float = 30.0
    ) -> list[dict[str, Any]]:
        """Messages up to and including the first for which `done` is true."""
        messages: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message within {timeout} s")
            message = await self.next(timeout=left)
            messages.append(message)
            if done(message):
                return messages

    async def collect_until(
        self, done: Callable[[list[dict[str, Any]]], bool], timeout: float = 30.0
    ) -> list[dict[str, Any]]:
        """Messages until `done(all of them so far)` holds; fails after `timeout` (a busy
        machine slows the world down, so tests wait for what they need, not for a fixed time)."""
        messages: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        while not done(messages):
            left = deadline - time.monotonic()
            if left <= 0:
                kinds = sorted({m["type"] for m in messages})
                raise AssertionError(f"gave up after {timeout} s: {len(messages)} messages {kinds}")
            try:
                messages.append(await self.next(timeout=left))
            except TimeoutError:
                continue
        return messages

    async def closed(
        self, timeout: float = 15.0, longest: float = 180.0
    ) -> tuple[int | None, str | None]:
        """Read until the server closes; returns its close code and reason. Fails when nothing
        arrives for `timeout` s, or the messages still come after `longest` s (a client that
        read nothing for a while may first have many buffered messages to get through)."""
        started = time.monotonic()
        try:
            while time.monotonic() - started < longest:
                await self.next(timeout=timeout)
        except ConnectionClosed as closed:
            received = closed.rcvd
            return (received.code, received.reason) if received else (None, None)
        raise AssertionError(f"the connection stayed open for {longest} s of messages")


async def open_feed(service: Service, key: str | None = None, **params: Any) -> Feed:
    """Connect and read the welcome message, checking it comes first."""
    # max_queue=None: a test that pauses reading must still see the closing handshake promptly.
    options: dict[str, Any] = {
        "open_timeout": 30,
        "proxy": None,
        "max_size": None,
        "max_queue": None,
    }
    options.update(params.pop("connect_options", {}))
    socket = await connect(feed_url(service, key, **params), **options)
    feed = Feed(socket)
    welcome = await feed.next()
    assert welcome["type"] == "welcome", welcome
    feed.welcome = welcome
    return feed


def rest(service: Service, path: str, key: str | None = None, **params: Any) -> httpx.Response:
    params["apiKey"] = service.key if key is None else key
    return httpx.get(service.url(path), params=params, timeout=30.0)


def rest_json(service: Service, path: str, **params: Any) -> Any:
    response = rest(service, path, **params)
    assert response.status_code == 200, (response.status_code, response.text[:300])
    return response.json()


def select_bookmakers(service: Service, names: list[str], key: str | None = None) -> list[str]:
    response = httpx.put(
        service.url("/bookmakers/selected/select"),
        params={"apiKey": service.key if key is None else key, "bookmakers": ",".join(names)},
        timeout=30.0,
    )
    assert response.status_code == 200, (response.status_code, response.text[:300])
    return list(response.json()["bookmakers"])


def has_odds(count: int = 1) -> Callable[[list[dict[str, Any]]], bool]:
    """A `collect_until` condition: at least `count` odds messages."""
    return lambda messages: len(odds_only(messages)) >= count


def odds_only(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] in ODDS_TYPES]
