"""What the client reads for a relay: its `relay` status, and each message's own line on demand."""

from __future__ import annotations

import json

from oddstui.api.messages import (
    OddsMessage,
    RelayStatus,
    ScoreMessage,
    StatusMessage,
    Welcome,
    iter_frame,
    parse_frame,
)
from tests.api.test_messages import UPDATED, line

WELCOME = {
    "type": "welcome",
    "bookmakers": ["Bet365"],
    "market_filter": ["ML"],
    "channels": ["odds"],
    "seq": 7,
}
SCORE = {"type": "score", "id": 5, "timestamp": None, "scores": {"home": 1, "away": 0}}
STATUS = {"type": "status", "id": 5, "status": "live", "scores": {"home": 0, "away": 0}}
PARTIAL = {**UPDATED, "markets": [{"name": "Player Props", "odds": [{"label": "A", "hdp": 1.5}]}]}


def test_a_relay_status_message_and_the_welcome_field_are_read() -> None:
    frame = "\n".join(
        [
            line({**WELCOME, "relay": {"upstream": "live", "detail": "streaming"}}),
            line({"type": "relay", "upstream": "offline", "detail": "cut"}),
        ]
    )
    (welcome, status), malformed = parse_frame(frame, received=3.0)
    assert malformed == 0
    assert isinstance(welcome, Welcome) and welcome.relay == RelayStatus("live", "streaming")
    assert status == RelayStatus("offline", "cut", 3.0)


def test_without_a_relay_the_welcome_has_none_and_a_bad_relay_line_is_counted() -> None:
    frame = "\n".join([line(WELCOME), line({"type": "relay", "detail": "no state"})])
    messages, malformed = parse_frame(frame)
    assert malformed == 1
    assert isinstance(messages[0], Welcome) and messages[0].relay is None


def test_lines_are_kept_only_when_asked() -> None:
    texts = [line(UPDATED), line(PARTIAL), json.dumps(SCORE), json.dumps(STATUS)]
    frame = "\n".join(texts)
    kept = list(iter_frame(frame, 1.0, keep_lines=True))
    assert [type(m) for m in kept] == [OddsMessage, OddsMessage, ScoreMessage, StatusMessage]
    assert [m.line for m in kept] == texts  # type: ignore[union-attr]
    plain = list(iter_frame(frame, 1.0))
    assert plain
    assert all(m.line == "" for m in plain)  # type: ignore[union-attr]
    assert [m.seq for m in plain[:2]] == [m.seq for m in kept[:2]]  # type: ignore[union-attr]
