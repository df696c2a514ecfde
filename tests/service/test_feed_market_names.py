"""Feed subscriptions name markets the service quotes, in printable text (issue 22, part 5)."""

from __future__ import annotations

import pytest

from oddstui.server.feed.params import BadFilter, parse_filter
from tests.service.conftest import Service
from tests.service.test_feed_support import denied, open_feed

SERVICE_OPTIONS = {"speed": 60, "updates_per_second": 300}


@pytest.mark.parametrize(
    ("markets", "text"),
    [
        ("ML,ZZ", "Unknown market: ZZ. This service quotes no market of that name"),
        ("ZZ\x00", "markets: must not contain control characters"),
        ("ML,Totals\x1b[31m", "markets: must not contain control characters"),
        ("ML,Tot\u2028als", "Invalid market: Tot\\u2028als. Market names are printable text"),
    ],
)
async def test_a_market_outside_the_catalog_or_with_control_characters_gets_400(
    service: Service, markets: str, text: str
) -> None:
    status, body = await denied(service, markets=markets)
    assert status == 400
    assert body == {"error": text}


async def test_catalog_names_are_taken_in_any_case(service: Service) -> None:
    feed = await open_feed(service, markets="ml,TOTALS,Double Chance,Player Props")
    async with feed.socket:
        assert feed.welcome["market_filter"] == ["ml", "TOTALS", "Double Chance", "Player Props"]


def test_without_a_catalog_only_control_characters_are_refused() -> None:
    # A source that cannot tell its catalog takes any printable name.
    assert parse_filter({"markets": "ML,Whatever"}).markets == ("ML", "Whatever")
    with pytest.raises(BadFilter, match="markets: must not contain control characters"):
        parse_filter({"markets": "A\tB"})
    with pytest.raises(BadFilter, match="Unknown market: Whatever"):
        parse_filter({"markets": "ML,Whatever"}, frozenset({"ml"}))


def test_a_long_bad_name_is_quoted_short() -> None:
    with pytest.raises(BadFilter) as refused:
        parse_filter({"markets": "Z" * 500}, frozenset({"ml"}))
    assert len(str(refused.value)) < 120
