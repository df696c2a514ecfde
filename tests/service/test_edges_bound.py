"""The service's own derived lists hold no edge a trader would call impossible: a soft book that
has not followed a move takes the market down (world/deadlines.py), so over three polls 20 s
apart nothing stands above 10 % in /arbitrage-bets (ten books) or /value-bets."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.service.conftest import Service
from tests.service.helpers import get, ok

SERVICE_OPTIONS = {"updates_per_second": 1000}
BOUND = 10.0  # percent
POLLS, EVERY = 3, 20.0
VALUE_BOOKS = 20


@pytest.mark.slow
def test_no_edge_above_ten_percent_over_three_polls(http: httpx.Client, service: Service) -> None:
    books = [b["name"] for b in ok(http.get("/bookmakers")) if b["active"]]
    arbs_seen = values_seen = 0
    for poll in range(POLLS):
        if poll:
            time.sleep(EVERY)  # the check's own spacing: the world moves on meanwhile
        arbs = ok(
            get(http, service, "/arbitrage-bets", bookmakers=",".join(books[:10]), limit=500)
        )
        values = []
        for book in books[:VALUE_BOOKS]:
            values += ok(get(http, service, "/value-bets", bookmaker=book))
        arbs_seen += len(arbs)
        values_seen += len(values)
        over = [a for a in arbs if a["profitMargin"] > BOUND]
        assert not over, [(a["profitMargin"], a["market"], a["legs"]) for a in over[:3]]
        big = [v for v in values if v["expectedValue"] > BOUND]
        assert not big, [(v["expectedValue"], v["bookmaker"], v["market"]) for v in big[:3]]
    # The lists were not empty: the bound held over real edges.
    assert arbs_seen > 0 and values_seen > 0, (arbs_seen, values_seen)
