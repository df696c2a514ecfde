"""Query validation (pure code, no service needed): each rule gives a 400 naming the parameter."""

from __future__ import annotations

import pytest

from oddstui.server.errors import BadRequest
from oddstui.server.params import (
    BOOLEAN,
    DATETIME,
    ENUM,
    INTEGER,
    LIST,
    NUMBER,
    STRING,
    Param,
    parse_query,
)
from oddstui.server.ratelimit import RateLimiter

PARAMS = (
    Param("limit", INTEGER, "", default=50, minimum=1, maximum=500),
    Param("minDrop", NUMBER, "", default=0.0, minimum=-100, maximum=100),
    Param("flag", BOOLEAN, "", default=False),
    Param("window", ENUM, "", default="opening", choices=("opening", "12h")),
    Param("ids", LIST, "", max_items=3, items=INTEGER),
    Param("books", LIST, "", max_items=2),
    Param("to", DATETIME, ""),
    Param("query", STRING, "", min_length=3, max_length=10),
    Param("need", STRING, "", required=True),
)


def parse(**raw: str) -> dict:
    return parse_query(PARAMS, [("need", "x"), *raw.items()])


def test_defaults_and_types() -> None:
    values = parse(
        limit="7",
        minDrop="2.5",
        flag="TRUE",
        window="12h",
        ids="3, 1,3",
        books="A,,B",
        to="2026-09-20T13:00:00Z",
        query=" abc ",
        other="ignored",
    )
    assert values == {
        "limit": 7,
        "minDrop": 2.5,
        "flag": True,
        "window": "12h",
        "ids": [3, 1],
        "books": ["A", "B"],
        "to": 1789909200.0,
        "query": "abc",
        "need": "x",
    }
    assert parse()["limit"] == 50 and parse(limit="")["limit"] == 50


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        ({"limit": "501"}, "limit: must be from 1 to 500"),
        ({"limit": "1.5"}, "limit: must be an integer"),
        ({"limit": "1e3"}, "limit: must be an integer"),
        ({"limit": "9" * 40}, "limit: must be an integer"),
        ({"minDrop": "nan"}, "minDrop: must be a number"),
        ({"minDrop": "1_0"}, "minDrop: must be a number"),
        ({"minDrop": "1e400"}, "minDrop: must be a finite number"),
        ({"flag": "maybe"}, "flag: must be true or false"),
        ({"window": "6h"}, "window: must be one of opening, 12h"),
        ({"ids": "1,2,3,4"}, "ids: at most 3"),
        ({"ids": "1,x"}, "ids: must be an integer"),
        ({"books": "A,B,C"}, "books: at most 2"),
        ({"to": "next week"}, "to: must be an RFC 3339 date-time"),
        ({"query": "ab"}, "query: must be at least 3"),
        ({"query": "a" * 11}, "query: must be at most 10"),
        ({"query": "ab\x00c"}, "query: must not contain control characters"),
    ],
)
def test_each_rule_names_the_parameter(raw: dict, needle: str) -> None:
    with pytest.raises(BadRequest) as caught:
        parse(**raw)
    assert needle in caught.value.message
    assert caught.value.status == 400


def test_required_and_repeated() -> None:
    with pytest.raises(BadRequest, match="need: required"):
        parse_query(PARAMS, [])
    with pytest.raises(BadRequest, match="limit: must be given at most once"):
        parse_query(PARAMS, [("need", "x"), ("limit", "1"), ("limit", "2")])


def test_hostile_values_are_cut_short_in_messages() -> None:
    with pytest.raises(BadRequest) as caught:
        parse(window="x" * 150)
    assert len(caught.value.message) < 150


def test_rate_limiter_window() -> None:
    now = [1000.0]
    limiter = RateLimiter(clock=lambda: now[0])
    verdicts = [limiter.hit("k", 2) for _ in range(3)]
    assert [v.allowed for v in verdicts] == [True, True, False]
    assert [v.remaining for v in verdicts] == [1, 0, 0]
    assert verdicts[2].retry_after == 3600
    assert verdicts[2].headers()["Retry-After"] == "3600"
    assert verdicts[0].headers()["x-ratelimit-reset"] == "1970-01-01T01:16:40Z"
    now[0] += 3600
    assert limiter.hit("k", 2).allowed and limiter.hit("other", 2).remaining == 1
