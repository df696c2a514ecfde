"""Pure pieces of the feed client: backoff, the feed URL and its redaction, the proxy's framing."""

from __future__ import annotations

import random

import pytest
from websockets.frames import Frame, Opcode

from oddstui.api.backoff import Backoff
from oddstui.api.feed import FeedClient
from oddstui.api.feed_url import FeedFilters, feed_url, shown_url, ws_base
from oddstui.book.oddsbook import OddsBook
from tests.api.fault_proxy import FrameTracker


def test_backoff_is_full_jitter_capped_and_resets() -> None:
    backoff = Backoff(base=1.0, cap=30.0, rng=random.Random(1))
    delays = [backoff.next_delay() for _ in range(12)]
    ceilings = [min(30.0, 2.0**n) for n in range(12)]
    # non-empty: twelve delays are drawn above
    assert all(0.0 <= d <= c for d, c in zip(delays, ceilings, strict=True))
    assert max(delays[6:]) > 2.0  # it really grows
    assert backoff.attempts == 12
    backoff.reset()
    assert backoff.attempts == 0 and backoff.next_delay() <= 1.0


def test_backoff_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        Backoff(base=0.0)
    with pytest.raises(ValueError):
        Backoff(base=5.0, cap=1.0)


def test_feed_url_carries_filters_and_resume_point() -> None:
    filters = FeedFilters(
        markets=("ML", "Totals HT"),
        channels=("odds", "status"),
        sports=("football",),
        event_ids=(7, 8),
        status="live",
    )
    url = feed_url("https://api.example/v3/", "s3cr&t", filters, 104233)
    assert url.startswith("wss://api.example/v3/ws?apiKey=s3cr%26t&")
    assert "markets=ML,Totals%20HT" in url and "channels=odds,status" in url
    assert "sport=football" in url and "eventIds=7,8" in url and "status=live" in url
    assert url.endswith("lastSeq=104233")
    assert "s3cr" not in shown_url(url)


def test_feed_url_without_odds_channel_sends_no_markets() -> None:
    url = feed_url("http://h:1/v3", None, FeedFilters(channels=("scores",)), None)
    assert url == "ws://h:1/v3/ws?channels=scores"


def test_ws_base_refuses_other_schemes() -> None:
    with pytest.raises(ValueError):
        ws_base("ftp://h/v3")


def test_client_repr_never_shows_the_key() -> None:
    client = FeedClient("http://127.0.0.1:1/v3?apiKey=inline-secret", "the-secret", OddsBook())
    assert "the-secret" not in repr(client) and "inline-secret" not in repr(client)


def _wire(payload: bytes) -> bytes:
    return Frame(Opcode.TEXT, payload).serialize(mask=False)


def test_frame_tracker_cuts_inside_a_payload_whatever_the_chunking() -> None:
    handshake = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"
    frames = [_wire(b"x" * size) for size in (5, 300, 70_000, 2)]
    stream = handshake + b"".join(frames)
    starts = []
    offset = len(handshake)
    for frame in frames:
        starts.append(offset)
        offset += len(frame)
    for chunk in (1, 7, 64, 4096):
        tracker = FrameTracker()
        position = 0
        cut_at = None
        while position < len(stream):
            data = stream[position : position + chunk]
            want = position >= starts[1]  # ask for a cut once the second frame has begun
            found = tracker.feed(data, want)
            if found is not None:
                cut_at = position + found
                break
            position += len(data)
        assert cut_at is not None
        # The cut lies strictly inside some frame's payload, never on a boundary.
        inside = [s for s, f in zip(starts, frames, strict=True) if s + 2 < cut_at < s + len(f)]
        assert inside, (chunk, cut_at)
