"""Feed faults that the built-in service cannot produce, against the scripted server.

Each test ends on the invariant: the book equals the server's GET /odds/multi, and no odds
message was applied twice.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from oddstui.api.budget import TokenBucket
from oddstui.api.feed import FeedClient
from oddstui.api.feed_state import FeedState
from oddstui.api.models import parse_odds_record
from oddstui.api.rest import ApiClient
from tests.api.feed_harness import (
    RecordingBook,
    backoff_periods_pass,
    differences,
    running,
    timings,
    wait_until,
)
from tests.api.scripted_server import ScriptedConnection, ScriptedServer, ScriptedWorld

KEY = "scripted-secret-key"


def make_client(
    server: ScriptedServer, api: ApiClient | None, book: RecordingBook, **kwargs: Any
) -> FeedClient:
    kwargs.setdefault("timings", timings())
    return FeedClient(
        server.base_url,
        KEY,
        book,
        api,
        track=server.world.event_ids,
        rng=random.Random(7),
        **kwargs,
    )


def assert_recovered(server: ScriptedServer, book: RecordingBook) -> None:
    records = [parse_odds_record(server.world.record(e)) for e in server.world.event_ids]
    assert differences(book, records) == []
    assert book.applied_twice() == []


async def hold_open(conn: ScriptedConnection) -> None:
    await conn.wait_closed()


async def test_malformed_json_and_unknown_types_are_counted_and_skipped() -> None:
    junk = ['{"type": "updated", "seq": 99', "garbage", '{"type": "surprise"}', "[]"]

    async def script(conn: ScriptedConnection) -> None:
        await conn.replay()
        await conn.after_snapshot()
        for _ in range(10):
            good = [json.dumps(conn.world.update()) for _ in range(2)]
            await conn.send_lines([good[0], *junk, good[1]])
        await conn.wait_closed()

    async with ScriptedServer(script) as server, ApiClient(server.base_url, KEY) as api:
        book = RecordingBook()
        client = make_client(server, api, book)
        async with running(client):
            await wait_until(lambda: client.last_seq == 1020, what="last update")
            assert client.counters.malformed == 10 * len(junk)
            assert client.state is FeedState.LIVE
            with client.lock:
                assert_recovered(server, book)
        assert book.odds_applied == 20


async def test_duplicate_and_older_seqs_are_dropped_and_counted() -> None:
    async def script(conn: ScriptedConnection) -> None:
        await conn.replay()
        await conn.after_snapshot()
        await conn.stream(30)
        old = conn.world.log[-30:-20]  # older states: applying them would revert prices
        await conn.send(*old)
        await conn.send(conn.world.log[-1])  # an exact duplicate of the newest
        await conn.send(conn.world.update())
        await conn.wait_closed()

    async with ScriptedServer(script) as server, ApiClient(server.base_url, KEY) as api:
        book = RecordingBook()
        client = make_client(server, api, book)
        async with running(client):
            await wait_until(lambda: client.last_seq == 1031, what="last update")
            assert client.counters.duplicates == 11
            with client.lock:
                assert_recovered(server, book)
        assert book.odds_applied == 31


async def test_frame_cut_mid_json_then_drop_recovers_by_replay() -> None:
    async def script(conn: ScriptedConnection) -> None:
        await conn.replay()
        if conn.index == 0:
            await conn.after_snapshot()
            await conn.stream(12)
            lines = [json.dumps(conn.world.update()) for _ in range(3)]
            lines[-1] = lines[-1][: len(lines[-1]) // 2]  # the frame ends mid-JSON
            await conn.send_lines(lines)
            conn.ws.transport.abort()  # and the link dies
            return
        await conn.stream(6)
        await conn.wait_closed()

    async with ScriptedServer(script) as server, ApiClient(server.base_url, KEY) as api:
        book = RecordingBook()
        client = make_client(server, api, book)
        async with running(client):
            await wait_until(lambda: len(server.connections) == 2, what="reconnect")
            await wait_until(lambda: client.last_seq == 1021, what="replay")
            assert server.connections[1].last_seq == 1014
            assert client.counters.malformed == 1
            assert client.counters.reconnects == 1
            with client.lock:
                assert_recovered(server, book)
        assert server.rest_calls == 1  # the first snapshot only: resuming needed no other


async def test_resync_required_rebuilds_from_a_snapshot_while_the_stream_is_buffered() -> None:
    async def script(conn: ScriptedConnection) -> None:
        await conn.welcome()
        await conn.stream(9)
        await conn.send(
            {"type": "resync_required", "reason": "lastSeq too old", "seq": conn.world.seq}
        )
        await conn.stream(60, pause=0.01)  # keeps flowing through the snapshot fetch
        await conn.wait_closed()

    async with ScriptedServer(script) as server, ApiClient(server.base_url, KEY) as api:
        book = RecordingBook()
        client = make_client(server, api, book)
        async with running(client):
            await wait_until(lambda: client.counters.resyncs == 2, what="second snapshot")
            await wait_until(lambda: client.last_seq == 1069, what="stream end")
            assert client.state is FeedState.LIVE
            with client.lock:
                assert_recovered(server, book)
        assert book.installs == 2 and server.rest_calls == 2


async def test_snapshot_race_buffers_live_messages_and_applies_only_newer_ones() -> None:
    world = ScriptedWorld()

    async def script(conn: ScriptedConnection) -> None:
        await conn.welcome()
        await conn.stream(90, pause=0.01)  # ~0.3 s of updates before, during and after
        await conn.wait_closed()

    server = ScriptedServer(script, world=world, snapshot_delay=0.4)
    async with server, ApiClient(server.base_url, KEY) as api:
        book = RecordingBook()
        client = make_client(server, api, book)
        async with running(client):
            await wait_until(lambda: client.counters.resyncs == 1, what="snapshot")
            await wait_until(lambda: client.last_seq == 1090, what="stream end")
            with client.lock:
                assert_recovered(server, book)
        # Some messages were at or below the snapshot's seq (dropped), some above (applied).
        assert client.counters.duplicates > 0
        assert book.odds_applied > 0
        assert client.counters.duplicates + book.odds_applied == 90


@pytest.mark.parametrize(("code", "handshakes"), [(1000, 1), (1013, 2)])
async def test_public_style_replaced_close_stops_without_ping_pong(
    code: int, handshakes: int
) -> None:
    # The public service's "replaced": 1000 while streaming stops at once (reconnecting would
    # knock the newer client off); 1013 also means "try again later", so it takes two.
    async def script(conn: ScriptedConnection) -> None:
        await conn.replay()
        await conn.after_snapshot()
        await conn.stream(15)
        await conn.close(code, "")  # seen right after data

    async with ScriptedServer(script) as server, ApiClient(server.base_url, KEY) as api:
        book = RecordingBook()
        client = make_client(server, api, book)
        async with running(client):
            await wait_until(lambda: client.state is FeedState.REPLACED, what="replaced")
            await backoff_periods_pass()  # many backoff periods: nothing more may happen
            assert len(server.handshakes) == handshakes
            assert client.state is FeedState.REPLACED
            with client.lock:
                assert_recovered(server, book)
            client.resume()  # the user pressed the key
            await wait_until(lambda: len(server.handshakes) == handshakes + 1, what="resume")


async def test_server_that_accepts_then_closes_cannot_cause_a_tight_loop() -> None:
    async def script(conn: ScriptedConnection) -> None:
        await conn.close(1000, "")

    async with ScriptedServer(script) as server:
        client = make_client(server, None, RecordingBook(), timings=timings(backoff_cap=2.0))
        delays: list[float] = []  # the waits the client chose, in order
        choose = client._backoff.next_delay

        def chosen() -> float:
            delays.append(choose())
            return delays[-1]

        client._backoff.next_delay = chosen  # type: ignore[method-assign]
        async with running(client):
            await wait_until(lambda: len(server.handshakes) >= 9, timeout=60, what="9 attempts")
            await wait_until(lambda: client.state is FeedState.OFFLINE, what="offline")
        stamps = list(server.handshakes)
    # A connection that closes at once never resets the backoff: the attempt count only grows,
    # so the ceiling of each full-jitter wait doubles from 0.05 s up to the 2 s cap.
    assert client._backoff.attempts >= 8
    ceilings = [min(2.0, 0.05 * 2**n) for n in range(len(delays))]
    assert delays
    assert all(0 <= delay <= top for delay, top in zip(delays, ceilings, strict=True))
    assert sum(delays[4:8]) > sum(delays[:4])  # the seeded jitter: fixed, not luck
    # And each wait was kept: no attempt came sooner than its delay (load only makes it later).
    gaps = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    kept = [gap >= delay - 0.005 for gap, delay in zip(gaps, delays, strict=False)]
    assert all(kept), (gaps, delays)


async def test_429_at_the_handshake_waits_for_retry_after() -> None:
    def reject(index: int, conn: ServerConnection, request: Request) -> Response | None:
        if index == 0:
            response = conn.respond(429, '{"error": "Too many requests"}')
            response.headers["Retry-After"] = "1"
            return response
        return None

    async with ScriptedServer(hold_open, reject=reject) as server:
        client = make_client(server, None, RecordingBook())
        async with running(client):
            await wait_until(lambda: len(server.handshakes) == 2, timeout=30, what="retry")
        # Not before the second Retry-After asks for (a busy machine can only make it later).
        assert server.handshakes[1] - server.handshakes[0] >= 1.0


async def test_401_at_the_handshake_stops_with_a_clear_state_and_no_key() -> None:
    def reject(index: int, conn: ServerConnection, request: Request) -> Response | None:
        return conn.respond(401, '{"error": "Invalid API key"}')

    async with ScriptedServer(hold_open, reject=reject) as server:
        client = make_client(server, None, RecordingBook())
        async with running(client):
            await wait_until(lambda: client.state is FeedState.UNAUTHORIZED, what="401")
            await backoff_periods_pass()  # time for retries, which must not come
        assert len(server.handshakes) == 1
        assert "401" in client.detail
        assert KEY not in client.detail and KEY not in repr(client)


async def test_silent_half_open_link_goes_stale_then_reconnects_and_resumes() -> None:
    async def script(conn: ScriptedConnection) -> None:
        await conn.replay()
        await conn.after_snapshot()
        await conn.stream(9)
        if conn.index == 0:
            conn.world.update()  # changes the server makes while the link is dead
            conn.world.update()
            await conn.go_silent(10.0)
            return
        await conn.wait_closed()

    fast = timings(stale_after=0.4, ping_interval=0.5, ping_timeout=0.5)
    async with ScriptedServer(script) as server, ApiClient(server.base_url, KEY) as api:
        book = RecordingBook()
        states: list[FeedState] = []
        client = make_client(
            server, api, book, timings=fast, on_state_change=lambda s: states.append(s.state)
        )
        async with running(client):
            await wait_until(lambda: FeedState.STALE in states, timeout=30, what="stale")
            await wait_until(lambda: len(server.connections) == 2, timeout=30, what="reconnect")
            await wait_until(lambda: client.last_seq == 1011, what="replay")
            await wait_until(lambda: client.state is FeedState.LIVE, what="live")
            with client.lock:
                assert_recovered(server, book)
        assert server.connections[1].last_seq is not None
        assert FeedState.REPLAYING in states


async def test_repeated_resync_required_is_rate_limited_by_the_token_bucket() -> None:
    async def script(conn: ScriptedConnection) -> None:
        await conn.welcome()
        for _ in range(8):  # a service that keeps asking: the client must not follow blindly
            await asyncio.sleep(0.1)
            await conn.send(conn.world.update())
            await conn.send({"type": "resync_required", "reason": "again", "seq": conn.world.seq})
        await conn.stream(9)
        await conn.wait_closed()

    async with ScriptedServer(script) as server, ApiClient(server.base_url, KEY) as api:
        book = RecordingBook()
        bucket = TokenBucket(2.0, 1 / 3600)  # two snapshots, then one an hour
        client = make_client(server, api, book, resync_bucket=bucket)
        async with running(client):
            await wait_until(lambda: client.state is FeedState.STALE, what="stale")
            await wait_until(lambda: client.last_seq == 1017, what="stream end")
            assert client.state is FeedState.STALE and "budget" in client.detail
        assert server.rest_calls == client.counters.resyncs == 2
        assert client.counters.connects == 1
        assert book.applied_twice() == []


@pytest.mark.parametrize("code", [1012, 1013])
async def test_a_single_restart_or_try_again_close_reconnects_and_resumes(code: int) -> None:
    async def script(conn: ScriptedConnection) -> None:
        await conn.replay()
        await conn.after_snapshot()
        await conn.stream(9)
        if conn.index == 0:
            conn.world.update()  # missed while reconnecting: the replay brings it
            await conn.close(code, "try again later")
            return
        await conn.wait_closed()

    async with ScriptedServer(script) as server, ApiClient(server.base_url, KEY) as api:
        book = RecordingBook()
        client = make_client(server, api, book)
        async with running(client):
            await wait_until(lambda: len(server.connections) == 2, what="reconnect")
            await wait_until(lambda: client.last_seq == 1019, what="replay and stream")
            assert client.state is FeedState.LIVE
            with client.lock:
                assert_recovered(server, book)
        assert server.connections[1].last_seq == 1009
        assert server.rest_calls == 1


async def test_5xx_at_the_handshake_backs_off_and_retries() -> None:
    def reject(index: int, conn: ServerConnection, request: Request) -> Response | None:
        return conn.respond(503, "busy") if index < 3 else None

    async def script(conn: ScriptedConnection) -> None:
        await conn.welcome()
        await conn.wait_closed()

    async with ScriptedServer(script, reject=reject) as server:
        client = make_client(server, None, RecordingBook())
        async with running(client):
            await wait_until(lambda: client.state is FeedState.LIVE, what="live")
        assert len(server.handshakes) == 4
        assert client.counters.connects == 4 and client.counters.reconnects == 0


async def test_the_key_never_reaches_the_logs_even_at_debug_level(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def reject(index: int, conn: ServerConnection, request: Request) -> Response | None:
        return conn.respond(401, "no") if index == 1 else None

    async def script(conn: ScriptedConnection) -> None:
        await conn.replay()
        await conn.close(1011, f"internal error near apiKey={KEY}")

    caplog.set_level(logging.DEBUG)
    async with ScriptedServer(script, reject=reject) as server:
        client = make_client(server, None, RecordingBook())
        async with running(client):
            await wait_until(lambda: client.state is FeedState.UNAUTHORIZED, what="401")
    ours = [r for r in caplog.records if not r.name.startswith("websockets.server")]
    assert any("GET /v3/ws" in r.getMessage() for r in ours)  # the request line was logged
    assert all(KEY not in r.getMessage() for r in ours)
    assert KEY not in client.detail and KEY not in repr(client)


async def test_a_snapshot_begun_on_a_dropped_connection_is_never_installed() -> None:
    async def script(conn: ScriptedConnection) -> None:
        await conn.welcome()
        if conn.index == 0:
            await asyncio.sleep(0.15)  # the client's snapshot request is under way
            await conn.close(1011, "")
            return
        await conn.after_snapshot(2)
        await conn.stream(9)
        await conn.wait_closed()

    server = ScriptedServer(script, snapshot_delay=0.5)
    async with server, ApiClient(server.base_url, KEY) as api:
        book = RecordingBook()
        client = make_client(server, api, book)
        async with running(client):
            await wait_until(lambda: client.last_seq == 1009, what="stream on the second link")
            # Both snapshots answered: the first one too, after its link was dropped.
            await wait_until(lambda: server.snapshots_answered == 2, what="both snapshots")
            with client.lock:
                assert_recovered(server, book)
        assert server.rest_calls == 2  # the first was asked for, then abandoned with its link
        assert book.installs == client.counters.resyncs == 1
        assert client.counters.reconnects == 1
