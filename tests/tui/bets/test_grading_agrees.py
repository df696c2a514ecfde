"""One settlement rule: on a day of the world, every bet the bet log settles from the final score
gets the same verdict from the service's POST /settlements/grade, and every leg the bet log
leaves to the trader is one the grader calls ungradeable.

The bets are every line of every market one bookmaker closed at, on the events settled in the
last 24 hours (the world is a function of its seed and the wall clock) of a few sports that
cover periods, quarters, sets and yes/no markets. Both sides run for real: the bet log's
`settle_open` over the wire, and the real `oddstui serve`.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator

import pytest

from oddstui.api.models.settlements import Selection
from oddstui.api.rest import ApiClient
from oddstui.betlog.bets import Bet, BetLeg
from oddstui.book.settlement import VERDICTS
from oddstui.tui.bets.settling import settle_open
from tests.api.feed_service import FEED_KEY, FeedService

pytestmark = pytest.mark.timeout(240)
SPORTS = ("football", "basketball", "tennis", "ice-hockey", "baseball", "esports")
EVENTS_PER_SPORT = 8
BOOK = "Bet365"


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FeedService]:
    with FeedService(tmp_path_factory.mktemp("grading"), "--seed", "11") as running:
        yield running


@pytest.fixture()
async def api(service: FeedService) -> AsyncIterator[ApiClient]:
    async with ApiClient(service.base_url, FEED_KEY) as client:
        yield client


async def bets_of_the_day(api: ApiClient) -> list[Bet]:
    """A bet per settled event: every line of every market the book closed at, each side."""
    now = time.time()
    bets: list[Bet] = []
    for sport in SPORTS:
        events = await api.events(sport, status="settled", start=_iso(now - 86400), to=_iso(now))
        events = events[:EVENTS_PER_SPORT]
        confirmed = await api.settlements([event.id for event in events])
        final = {entry.event_id for entry in confirmed.settlements if entry.final}
        for event in (event for event in events if event.id in final):
            record = await api.historical_odds(event.id, [BOOK])
            legs = [
                BetLeg(market.name, line.hdp, side, BOOK, price, 1.0, label=line.label or "")
                for market in record.bookmakers.get(BOOK, ())
                for line in market.lines
                for side, price in line.prices.items()
            ]
            if legs:
                bets.append(
                    Bet(event.id, now, "test", f"{event.home} v {event.away}", tuple(legs),
                        sport=sport, id=len(bets) + 1)
                )  # fmt: skip
    return bets


async def test_the_grader_agrees_with_the_bet_logs_settlement(api: ApiClient) -> None:
    bets = await bets_of_the_day(api)
    assert len({bet.sport for bet in bets}) == len(SPORTS), "settled events in every sport"
    settled = {bet.id: bet for bet in await settle_open(api, bets, time.time())}
    assert set(settled) == {bet.id for bet in bets}, "every event of the day has ended"
    pairs = [(leg, bet.event_id) for bet in settled.values() for leg in bet.legs]
    selections = [
        Selection(event_id, leg.market, leg.side, leg.hdp, leg.label, ref=n)
        for n, (leg, event_id) in enumerate(pairs)
    ]
    grades = []
    for start in range(0, len(selections), 50):
        grades += await api.grade(selections[start : start + 50])
    assert [grade.ref for grade in grades] == list(range(len(pairs))), "in the order sent"
    disagreements = []
    by_score = 0
    for (leg, event_id), grade in zip(pairs, grades, strict=True):
        mine = "ungradeable" if leg.result is None else VERDICTS[leg.result]
        by_score += leg.result is not None
        if grade.result != mine or not grade.final:
            disagreements.append((event_id, leg.line_text, leg.side, mine, grade.result))
    assert not disagreements, disagreements[:10]
    assert by_score >= 500, f"only {by_score} legs settled from the score"
    verdicts = {grade.result for grade in grades}
    assert {"won", "lost", "ungradeable"} <= verdicts
    assert verdicts & {"half_won", "half_lost", "void"}, "quarter and whole lines were graded"
    periods = {leg.market for leg, _ in pairs if leg.result is not None}
    assert {"Totals HT", "Spread 1Q", "Set 1 ML"} & periods, sorted(periods)[:20]


def _iso(moment: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(moment))
