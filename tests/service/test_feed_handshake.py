"""The feed's handshake over real sockets: keys, the add-on, every 400 text, welcome, channels."""

from __future__ import annotations

import pytest

from tests.service.conftest import PAID_SELECTION, Service
from tests.service.helpers import check_scores
from tests.service.test_feed_support import MARKETS, ODDS_TYPES, denied, has_odds, open_feed

SERVICE_OPTIONS = {"speed": 60, "updates_per_second": 300}


def many(count: int, stem: str = "x") -> str:
    return ",".join(f"{stem}{n}" for n in range(count))


async def test_missing_and_unknown_keys_get_401(service: Service) -> None:
    for key in ("", "no-such-key"):
        status, body = await denied(service, key, markets="ML")
        assert status == 401
        assert set(body) == {"error"} and "apiKey" in body["error"]
        assert key == "" or key not in body["error"]


async def test_accounts_without_the_feed_add_on_get_403(service: Service) -> None:
    for key in (service.keys.nofeed, service.keys.free):
        status, body = await denied(service, key, markets="ML")
        assert status == 403
        assert "feed" in body["error"]


async def test_the_key_is_checked_before_the_filters(service: Service) -> None:
    status, _ = await denied(service, "no-such-key", status="finished")
    assert status == 401


@pytest.mark.parametrize(
    ("params", "text"),
    [
        ({"markets": "ML", "sport": many(11)}, "Too many sports. Maximum 10 allowed."),
        ({"markets": "ML", "leagues": many(21)}, "Too many leagues. Maximum 20 allowed."),
        ({"markets": "ML", "eventIds": many(51, "")}, "Too many event IDs. Maximum 50 allowed."),
        ({"markets": many(21)}, "Too many markets. Maximum 20 allowed."),
        (
            {"markets": "ML", "leagues": "a", "eventIds": "1"},
            "Cannot use both 'leagues' and 'eventIds' filters together.",
        ),
        (
            {"markets": "ML", "status": "finished"},
            "Invalid status filter. Use 'prematch' or 'live'",
        ),
        (
            {"markets": "ML", "channels": "odds,gossip"},
            "Invalid channel: gossip. Allowed: odds, scores, status",
        ),
        ({"channels": "odds,status"}, "markets is required when the odds channel is subscribed"),
        ({}, "markets is required when the odds channel is subscribed"),
    ],
)
async def test_each_bad_filter_gets_400_with_its_exact_text(
    service: Service, params: dict[str, str], text: str
) -> None:
    status, body = await denied(service, **params)
    assert status == 400
    assert body == {"error": text}


async def test_welcome_comes_first_and_confirms_the_filters(service: Service) -> None:
    feed = await open_feed(
        service,
        markets="ML,totals",
        channels="odds,status",
        sport="Football,tennis",
        status="live",
    )
    async with feed.socket:
        welcome = feed.welcome
        assert welcome["bookmakers"] == list(PAID_SELECTION)
        assert welcome["market_filter"] == ["ML", "totals"]
        assert welcome["channels"] == ["odds", "status"]
        assert sorted(welcome["sport_filter"]) == ["football", "tennis"]
        assert welcome["leagues_filter"] == [] and welcome["eventIds_filter"] == []
        assert welcome["status_filter"] == "live"
        assert isinstance(welcome["seq"], int) and welcome["seq"] >= 0
        later = await feed.collect_until(has_odds(3))
        # non-empty: has_odds(3) waited for three odds messages
        assert all(m["type"] != "welcome" for m in later)
        assert all(m["seq"] > welcome["seq"] for m in later if "seq" in m)


async def test_welcome_without_a_status_filter_has_null(service: Service) -> None:
    feed = await open_feed(service, channels="scores", eventIds="1,2")
    async with feed.socket:
        assert feed.welcome["status_filter"] is None
        assert feed.welcome["eventIds_filter"] == [1, 2]
        assert feed.welcome["market_filter"] == []


async def test_text_from_the_client_is_ignored(service: Service) -> None:
    feed = await open_feed(service, markets=MARKETS)
    async with feed.socket:
        for junk in ("hello", '{"type": "subscribe", "markets": "all"}', "\x00" * 1000, "{" * 5000):
            await feed.socket.send(junk)
        await feed.socket.send(b"\xff\xfe binary too")
        messages = await feed.collect_until(has_odds(5))
        # non-empty: has_odds(5) waited for five odds messages
        assert all(m["type"] in ODDS_TYPES for m in messages)
        await feed.socket.ping()  # still open and answering


async def test_channels_are_an_allowlist(service: Service) -> None:
    events_only = await open_feed(service, channels="scores,status")
    async with events_only.socket:
        messages = await events_only.collect_until(lambda ms: any(m["type"] == "score" for m in ms))
        messages += await events_only.collect(1.0)
    kinds = {m["type"] for m in messages}
    assert kinds <= {"score", "status"}, kinds

    odds_only = await open_feed(service, markets=MARKETS)
    async with odds_only.socket:
        messages = await odds_only.collect_until(has_odds(20))
        messages += await odds_only.collect(1.0)
    kinds = {m["type"] for m in messages}
    assert kinds <= set(ODDS_TYPES), kinds


async def test_score_and_status_messages_carry_no_seq_and_no_bookie(service: Service) -> None:
    feed = await open_feed(service, channels="scores,status")
    async with feed.socket:
        messages = await feed.collect_until(
            lambda got: {"score", "status"} <= {m["type"] for m in got}, timeout=60.0
        )
    # non-empty: collected until a score and a status came
    for message in messages:
        assert "seq" not in message and "bookie" not in message and "markets" not in message
        assert isinstance(message["id"], int) and message["timestamp"].endswith("Z")
        check_scores(message["scores"])
    scores = [m for m in messages if m["type"] == "score"]
    assert scores and all("status" not in m for m in scores)
    statuses = [m for m in messages if m["type"] == "status"]
    assert statuses and all(
        m["status"] in ("pending", "live", "settled", "cancelled") for m in statuses
    )


async def test_refusals_leave_the_service_log_clean(service: Service) -> None:
    for key in ("no-such-key", service.keys.nofeed, service.key):
        await denied(service, key, status="finished", markets="ML")
    log = service.stderr()
    assert "ASGI callable" not in log and "Traceback" not in log
    assert service.key not in log
