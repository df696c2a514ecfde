"""Every market against the real built-in service: the desk's subscription, and markets that the
service withdraws (a half-time line once the half is over) leaving the book."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from oddstui.api.feed_url import FEED_MARKETS
from oddstui.api.messages import OddsMessage
from oddstui.api.rest import ApiClient
from oddstui.seed_markets import MAX_FEED_MARKETS
from oddstui.tui.event.market_order import MAIN, SPORT_MAIN
from tests.api.feed_harness import (
    RecordingBook,
    assert_matches_service,
    feed_client,
    rest,
    running,
    selected,
    streaming,
    wait_until,
)
from tests.api.feed_service import FEED_KEY, FeedService

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FeedService]:
    """A minute of play a second: half-time markets close within the test."""
    flags = ("--seed", "8", "--speed", "60", "--updates-per-second", "400")
    with FeedService(tmp_path_factory.mktemp("markets"), *flags) as service:
        yield service


class DropWatchingBook(RecordingBook):
    """Records every (event, bookmaker, market) that an odds message's list left out."""

    def __init__(self) -> None:
        super().__init__()
        self.dropped: list[tuple[int, str, str]] = []

    def apply_odds(self, message: OddsMessage) -> None:
        state = self.event(message.event_id)
        held = state.books.get(message.bookie) if state is not None else None
        before = set(held.markets) if held is not None else set()
        super().apply_odds(message)
        if message.kind in ("deleted", "no_markets"):
            return  # the whole bookmaker goes: not a market left out of a list
        after = set(self.market_names_of(message.event_id, message.bookie))
        self.dropped.extend((message.event_id, message.bookie, name) for name in before - after)

    def market_names_of(self, event_id: int, bookie: str) -> list[str]:
        state = self.event(event_id)
        held = state.books.get(bookie) if state is not None else None
        return list(held.markets) if held is not None else []


def test_the_desk_subscribes_to_every_sports_main_markets_within_the_limit() -> None:
    mains = {name for names in SPORT_MAIN.values() for name in names} | set(MAIN)
    assert mains - set(FEED_MARKETS) == set()
    assert len(set(FEED_MARKETS)) == len(FEED_MARKETS) == MAX_FEED_MARKETS


#: Main markets of a sport that the desk once left out of its subscription.
ONCE_MISSING = {"ice-hockey": {"ML Incl OT"}, "tennis": {"Sets Spread", "Sets Totals"}}


async def test_ice_hockey_and_tennis_in_play_show_their_own_main_markets(
    fast: FeedService,
) -> None:
    """Ice hockey's "ML Incl OT" (all its books quote in overtime) and tennis's sets reach the
    desk's book, on every live match where the service quotes them before and after."""
    async with rest(fast) as api:
        books = await selected(api)
        live = [e.id for e in await api.live_events() if e.sport.slug in ONCE_MISSING][:20]
        before = await once_missing_quoted(api, live, books)
        assert {slug for slug, _ in before.values()} == set(ONCE_MISSING), "both are in play"
        ids = list(before)
        book = RecordingBook()
        client = feed_client(fast.base_url, FEED_KEY, book, api, ids)
        async with running(client):
            await streaming(client)
            with client.lock:
                shown = {event_id: set(book.market_names(event_id)) for event_id in ids}
            after = await once_missing_quoted(api, ids, books)
            judged = {slug for slug, _ in after.values()}
            assert judged == set(ONCE_MISSING), "a match of each is still quoted on them"
            # non-empty: after holds a match of each ONCE_MISSING sport (judged above)
            for event_id, (slug, markets) in after.items():
                assert shown[event_id] & markets & before[event_id][1], f"{slug} {event_id}"
            await assert_matches_service(client, book, api, ids, books)


async def once_missing_quoted(
    api: ApiClient, ids: list[int], books: list[str]
) -> dict[int, tuple[str, set[str]]]:
    """The events of `ids` whose books quote some of their sport's once-missing markets, with
    the sport and those markets."""
    quoted = {}
    for event_id in ids:
        record = await api.odds(event_id, books)
        wanted = ONCE_MISSING[record.event.sport.slug]
        names = {q.name for quotes in record.bookmakers.values() for q in quotes} & wanted
        if names:
            quoted[event_id] = (record.event.sport.slug, names)
    return quoted


async def test_a_market_the_service_withdraws_leaves_the_book(fast: FeedService) -> None:
    async with rest(fast) as api:
        live = [event.id for event in await api.live_events() if event.sport.slug == "football"]
        assert len(live) >= 3, "the world has live football"
        ids, books = live[:10], await selected(api)
        book = DropWatchingBook()
        client = feed_client(fast.base_url, FEED_KEY, book, api, ids)
        async with running(client):
            await streaming(client)
            assert book.complete_markets, "the built-in service announces complete market lists"
            await wait_until(lambda: bool(book.dropped), timeout=90, what="a withdrawn market")
            event_id, bookie, market = book.dropped[0]
            with client.lock:
                names = book.market_names_of(event_id, bookie)
            # Gone, unless the service quoted it again since (a later complete message).
            later = [
                m
                for m in book.epochs[-1]
                if m.event_id == event_id and m.bookie == bookie and m.kind == "updated"
            ]
            relisted = any(market in {q.name for q in m.markets} for m in later[-1:])
            assert market not in names or relisted
            await assert_matches_service(client, book, api, ids, books)
