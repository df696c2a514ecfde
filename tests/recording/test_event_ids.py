"""Which event a feed message is about, read from its text: the quick look at an odds
message's head agrees with a full parse, and anything else is parsed."""

from __future__ import annotations

import json

import orjson
import pytest

from oddstui.recording.event_ids import as_event_id, message_event_id


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            {
                "type": "updated",
                "seq": 5,
                "timestamp": "2026-11-26T20:46:53.867Z",
                "id": 66,
                "bookie": "B",
            },
            66,
        ),
        ({"type": "updated", "seq": 5, "id": "66", "bookie": "B"}, 66),
        ({"type": "deleted", "seq": 5, "id": 66}, 66),
        ({"type": "updated", "seq": 5, "id": "66,7", "bookie": "B"}, None),  # no number
        ({"type": "score", "id": 66, "scores": {"home": 1}}, 66),
        ({"scores": {"id": 3}, "type": "score", "id": 66}, 66),  # an id nested before
        ({"type": "updated", "seq": 5, "timestamp": 'say "x"', "id": 66}, 66),
        ({"type": "updated", "seq": 5, "id": True}, None),
        ({"type": "updated", "seq": 5}, None),
    ],
)
def test_the_event_a_message_is_about(message: dict[str, object], expected: int | None) -> None:
    for text in (orjson.dumps(message).decode(), json.dumps(message)):  # tight and spaced
        assert message_event_id(text) == expected


def test_text_that_is_no_object_is_about_no_event() -> None:
    assert message_event_id("[1, 2]") is None
    assert message_event_id('"id"') is None


def test_ids_as_numbers() -> None:
    assert [as_event_id(v) for v in (7, "7", 7.0, " 7 ")] == [7, 7, 7, 7]
    assert [as_event_id(v) for v in (None, "x", False, [7], float("inf"))] == [None] * 5
