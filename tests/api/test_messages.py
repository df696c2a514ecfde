"""parse_frame: newline batches, string or number ids, partial markets, bad lines counted."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from oddstui.api.messages import (
    OddsMessage,
    ResyncRequired,
    ScoreMessage,
    StatusMessage,
    Welcome,
    parse_frame,
)

UPDATED: dict[str, Any] = {
    "type": "updated",
    "seq": 104234,
    "timestamp": "2026-11-21T10:00:01.250Z",
    "id": 72221272,
    "bookie": "Bet365",
    "url": "https://bet365.example/e/1",
    "markets": [
        {
            "name": "ML",
            "updatedAt": "2026-09-18T18:53:59.208Z",
            "odds": [{"home": "3.100", "draw": "3.800", "away": "2.150", "max": 500}],
        },
        {
            "name": "Totals",
            "updatedAt": "2026-09-18T17:25:43.122Z",
            "odds": [{"hdp": 2.5, "over": "1.85", "under": "2.10"}],
        },
    ],
}


def line(message: dict[str, Any]) -> str:
    return json.dumps(message)


def test_updated_message_parses_into_typed_markets() -> None:
    messages, malformed = parse_frame(line(UPDATED), received=12.5)
    assert malformed == 0
    [message] = messages
    assert isinstance(message, OddsMessage)
    assert (message.kind, message.seq, message.event_id, message.bookie) == (
        "updated",
        104234,
        72221272,
        "Bet365",
    )
    assert message.received == 12.5
    assert message.timestamp is not None and message.timestamp.microsecond == 250_000
    ml, totals = message.markets
    assert ml.name == "ML" and ml.lines[0].prices == {"home": 3.1, "draw": 3.8, "away": 2.15}
    assert ml.lines[0].max == 500
    assert totals.lines[0].hdp == 2.5 and totals.lines[0].prices == {"over": 1.85, "under": 2.1}


def test_a_frame_carries_several_newline_separated_messages_in_order() -> None:
    second = dict(UPDATED, seq=104235, id="72221273")  # the public feed may send the id as text
    frame = "\n".join([line(UPDATED), "", line(second), "  "])
    messages, malformed = parse_frame(frame)
    assert malformed == 0
    assert [m.seq for m in messages if isinstance(m, OddsMessage)] == [104234, 104235]
    assert [m.event_id for m in messages if isinstance(m, OddsMessage)] == [72221272, 72221273]


def test_updated_with_only_some_markets_is_accepted_as_sent() -> None:
    partial = dict(UPDATED, markets=[UPDATED["markets"][1]])
    [message], malformed = parse_frame(line(partial))
    assert malformed == 0
    assert isinstance(message, OddsMessage)
    assert [m.name for m in message.markets] == ["Totals"]


def test_deleted_and_no_markets_carry_no_markets() -> None:
    deleted = {
        "type": "deleted",
        "seq": 5,
        "timestamp": "2026-11-21T10:00:01Z",
        "id": 7,
        "bookie": "Bet365",
    }
    empty = dict(deleted, type="no_markets", seq=6)
    messages, malformed = parse_frame(line(deleted) + "\n" + line(empty))
    assert malformed == 0
    assert [(m.kind, m.markets) for m in messages if isinstance(m, OddsMessage)] == [
        ("deleted", ()),
        ("no_markets", ()),
    ]


def test_score_status_welcome_and_resync_messages() -> None:
    frame = "\n".join(
        line(m)
        for m in [
            {
                "type": "score",
                "id": "9",
                "timestamp": "2026-11-21T10:00:00Z",
                "scores": {"home": 1, "away": 0, "periods": {"p1": {"home": 1, "away": 0}}},
            },
            {
                "type": "status",
                "id": 9,
                "timestamp": "2026-11-21T10:00:00Z",
                "status": "settled",
                "scores": {"home": 2, "away": 1, "periods": {}},
            },
            {
                "type": "welcome",
                "bookmakers": ["Bet365", "Pinnacle"],
                "market_filter": ["ML"],
                "channels": ["odds", "status"],
                "sport_filter": [],
                "leagues_filter": [],
                "eventIds_filter": ["9"],
                "status_filter": None,
                "seq": 77,
            },
            {"type": "resync_required", "reason": "lastSeq too old", "seq": 80},
        ]
    )
    (score, status, welcome, resync), malformed = parse_frame(frame)
    assert malformed == 0
    assert isinstance(score, ScoreMessage) and score.scores.periods == {"p1": (1, 0)}
    assert isinstance(status, StatusMessage) and (status.status, status.scores.home) == (
        "settled",
        2,
    )
    assert isinstance(welcome, Welcome)
    assert welcome.bookmakers == ("Bet365", "Pinnacle") and welcome.seq == 77
    assert welcome.event_ids_filter == (9,) and welcome.status_filter is None
    assert resync == ResyncRequired("lastSeq too old", 80)


def test_bad_lines_are_counted_and_the_good_ones_kept() -> None:
    good = line(UPDATED)
    bad_lines = [
        good[: len(good) // 2],  # cut mid-JSON
        "not json at all",
        "[1, 2, 3]",  # JSON but not an object
        line({"type": "surprise", "seq": 1}),  # unknown type
        line({"seq": 3}),  # no type
        line(dict(UPDATED, seq=None)),  # odds without seq
        line(dict(UPDATED, bookie=None)),
        line(dict(UPDATED, id=None)),
        line(dict(UPDATED, id="seventy")),
        line(dict(UPDATED, markets={"ML": []})),  # markets not a list
        line(dict(UPDATED, markets=[{"odds": []}])),  # market without a name
        line(dict(UPDATED, markets=[{"name": "ML", "odds": [{"home": "Infinity"}]}])),
        line(dict(UPDATED, timestamp="yesterday")),
        line({"type": "status", "id": 1}),  # no status
        "[" * 100_000,  # deep nesting
    ]
    frame = "\n".join([good, *bad_lines, good])
    messages, malformed = parse_frame(frame)
    assert malformed == len(bad_lines)
    assert [m.seq for m in messages if isinstance(m, OddsMessage)] == [104234, 104234]


def test_binary_frames_are_decoded_and_invalid_utf8_counted() -> None:
    messages, malformed = parse_frame(line(UPDATED).encode())
    assert (len(messages), malformed) == (1, 0)
    assert parse_frame(b"\xff\xfe{") == ([], 1)


def test_suspended_and_missing_prices_are_left_out() -> None:
    odds = [{"home": "1.00", "draw": "N/A", "away": "2.50"}]
    message = dict(UPDATED, markets=[{"name": "ML", "odds": odds}])
    [parsed], malformed = parse_frame(line(message))
    assert malformed == 0
    assert isinstance(parsed, OddsMessage)
    assert parsed.markets[0].lines[0].prices == {"away": 2.5}


@given(st.lists(st.one_of(st.text(max_size=40), st.binary(max_size=40)), max_size=8))
def test_parse_frame_never_raises(lines: list[Any]) -> None:
    text = "\n".join(x if isinstance(x, str) else x.decode("latin-1") for x in lines)
    messages, malformed = parse_frame(text)
    assert malformed >= 0 and len(messages) + malformed <= len(text.split("\n"))
