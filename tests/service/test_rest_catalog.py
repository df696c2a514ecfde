"""Catalog endpoints: sports, bookmakers, leagues, participants and crests."""

from __future__ import annotations

import httpx

from tests.service.conftest import Service
from tests.service.helpers import SEED_SPORTS, error, fold, get, ok

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_sports_are_the_seeds_34_and_need_no_key(http: httpx.Client) -> None:
    sports = ok(http.get("/sports"))
    assert [s["slug"] for s in sports] == SEED_SPORTS
    assert all(set(s) == {"name", "slug"} and s["name"] for s in sports)


def test_bookmakers_need_no_key_and_250_or_more_are_active(http: httpx.Client) -> None:
    books = ok(http.get("/bookmakers"))
    assert len(books) == 265
    assert sum(1 for b in books if b["active"] is True) >= 250
    names = [b["name"] for b in books]
    assert len(set(names)) == len(names)
    assert {"Bet365", "Pinnacle"} <= set(names)


def test_leagues_of_a_sport_with_counts(http: httpx.Client, service: Service) -> None:
    leagues = ok(get(http, service, "/leagues", sport="football"))
    assert leagues and all(set(lg) == {"name", "slug", "eventsCount"} for lg in leagues)
    assert sum(lg["eventsCount"] for lg in leagues) > 0
    # each count is the league's pending and live events
    league = max(leagues, key=lambda lg: lg["eventsCount"])
    events = ok(
        get(
            http,
            service,
            "/events",
            sport="football",
            league=league["slug"],
            status="pending,live",
            **{"from": "2000-01-01T00:00:00Z", "to": "2100-01-01T00:00:00Z"},
        )
    )
    assert len(events) == league["eventsCount"]


def test_leagues_bad_input(http: httpx.Client, service: Service) -> None:
    error(get(http, service, "/leagues"), 400, "sport", "required")
    error(get(http, service, "/leagues", sport="curling-on-mars"), 400, "sport", "unknown")
    error(get(http, service, "/leagues", key="", sport="football"), 401, "apiKey")
    error(get(http, service, "/leagues", key="nope", sport="football"), 401, "apiKey")


def test_participants_search_and_lookup(http: httpx.Client, service: Service) -> None:
    people = ok(get(http, service, "/participants", sport="football"))
    assert people and all(set(p) == {"id", "name", "sport"} for p in people)
    assert all(p["sport"] == "football" for p in people)
    one = people[len(people) // 2]
    assert ok(get(http, service, f"/participants/{one['id']}")) == one
    fragment = one["name"][1:4]
    found = ok(get(http, service, "/participants", sport="football", search=fragment))
    assert one in found
    assert all(fold(fragment) in fold(p["name"]) for p in found)


def test_names_include_non_ascii_and_markup_characters(
    http: httpx.Client, service: Service
) -> None:
    names = []
    for sport in ("football", "ice-hockey", "basketball", "tennis", "handball"):
        names += [p["name"] for p in ok(get(http, service, "/participants", sport=sport))]
    text = "".join(names)
    assert any(not ch.isascii() for ch in text)
    assert any(ch in text for ch in "[]&")


def test_accent_insensitive_participant_search(http: httpx.Client, service: Service) -> None:
    people = ok(get(http, service, "/participants", sport="football"))
    accented = next(p for p in people if any(ch in p["name"] for ch in "éóšŠáíúñç"))
    plain = fold(accented["name"])
    assert plain != accented["name"].casefold()
    found = ok(get(http, service, "/participants", sport="football", search=plain))
    assert accented in found


def test_participant_errors(http: httpx.Client, service: Service) -> None:
    error(get(http, service, "/participants/999999999"), 404, "999999999")
    error(get(http, service, "/participants/abc"), 400, "id", "integer")
    error(get(http, service, "/participants/-3"), 400, "id")
    error(get(http, service, "/participants"), 400, "sport", "required")


def test_logo_png_cached_for_a_day_or_404(http: httpx.Client, service: Service) -> None:
    people = ok(get(http, service, "/participants", sport="football"))
    crests = missing = 0
    for person in people[:60]:
        response = get(http, service, f"/participants/{person['id']}/logo")
        if response.status_code == 200:
            crests += 1
            assert response.headers["content-type"] == "image/png"
            assert "max-age=86400" in response.headers["cache-control"]
            assert response.content.startswith(PNG_MAGIC)
        else:
            missing += 1
            error(response, 404, str(person["id"]))
    assert crests and missing, (crests, missing)
    error(get(http, service, "/participants/999999999/logo"), 404)
