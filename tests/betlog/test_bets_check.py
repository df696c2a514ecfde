"""`oddstui bets --check` against the real built-in service: the legs the bet log settled from the
score are graded by POST /settlements/grade, and a leg the log reads otherwise is listed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from oddstui.betlog.bets import Bet, BetLeg
from oddstui.betlog.store import BetLog
from tests.api.feed_service import FEED_KEY, FeedService

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FeedService]:
    with FeedService(tmp_path_factory.mktemp("bets-check"), "--seed", "4") as running:
        yield running


def bets(folder: Path, *args: str, key: str = FEED_KEY) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ODDSTUI_HOME": str(folder), "ODDSTUI_API_KEY": key}
    return subprocess.run(
        [sys.executable, "-m", "oddstui", "bets", "--file", str(folder / "bets.sqlite"), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def settled_match(service: FeedService) -> dict:
    start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 86400))
    params = {"apiKey": FEED_KEY, "sport": "football", "status": "settled", "from": start}
    events = httpx.get(service.base_url + "/events", params=params).json()
    assert events
    return events[0]


def test_a_disagreement_is_listed(service: FeedService, tmp_path: Path) -> None:
    event = settled_match(service)
    home, away = event["scores"]["periods"]["ft"].values()
    winner = "home" if home > away else "away" if away > home else "draw"
    loser = "away" if winner == "home" else "home"
    legs = (
        BetLeg("ML", None, winner, "Bet365", 2.0, 10.0, result=1.0, settled_by="score"),
        # The log says this one won; the score says it lost.
        BetLeg("ML", None, loser, "Unibet", 3.0, 10.0, result=1.0, settled_by="score"),
        # Settled by hand: not the grader's business.
        BetLeg("Corners Totals", 9.5, "over", "Bet365", 1.9, 5.0, result=-1.0, settled_by="hand"),
    )
    log = BetLog(tmp_path / "bets.sqlite")
    stored = log.record(Bet(event["id"], time.time(), "Test", "Home v Away", legs, "football"))
    log.update(replace(stored, settled_at=time.time()))
    done = bets(tmp_path, "--check", "--base-url", service.base_url)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[-1] == "2 legs settled from the score checked · 1 disagree"
    (line,) = lines[:-1]
    assert f"bet {stored.id} leg 2" in line
    assert f"ML {loser}: the bet log says won, the service says lost" in line


def test_check_needs_a_key_and_a_grading_service(service: FeedService, tmp_path: Path) -> None:
    BetLog(tmp_path / "bets.sqlite").record(
        Bet(1, time.time(), "Test", "A v B", (BetLeg("ML", None, "home", "X", 2.0, 1.0),))
    )
    no_key = bets(tmp_path, "--check", "--base-url", service.base_url, key="")
    assert no_key.returncode == 2 and "API key" in no_key.stderr
    bad_url = bets(tmp_path, "--check", "--base-url", "ftp://example")
    assert bad_url.returncode == 2 and no_key.stdout == ""
    nothing = bets(tmp_path, "--check", "--base-url", service.base_url)
    assert nothing.stdout.strip() == "0 legs settled from the score checked · 0 disagree"
