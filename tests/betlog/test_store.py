"""The bet log in SQLite: bets kept, a locked log loses nothing, a bad file is set aside."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from oddstui.betlog.bets import Bet, BetLeg
from oddstui.betlog.store import BetLog, BetLogError


def a_bet(event_id: int = 7, placed_at: float = 1_790_000_000.0) -> Bet:
    return Bet(
        event_id=event_id,
        placed_at=placed_at,
        board="Arbitrage",
        event_name="Home FC v Away FC",
        legs=(
            BetLeg("Totals", 2.5, "over", "Pinnacle", 2.1, 48.0),
            BetLeg("Totals", 2.5, "under", "SingBet", 2.05, 52.0, commission=0.0),
        ),
        sport="football",
        league="England - Premier League",
    )


def test_bets_are_kept_with_their_legs(tmp_path: Path) -> None:
    log = BetLog(tmp_path / "bets.sqlite")
    stored = log.record(a_bet())
    assert stored.id == 1
    again = BetLog(tmp_path / "bets.sqlite").bets()
    assert again == [stored]
    settled = stored.with_leg(0, BetLeg("Totals", 2.5, "over", "Pinnacle", 2.1, 48.0, result=1.0))
    log.update(settled)
    [read] = log.bets()
    assert read.legs[0].result == 1.0 and read.legs[1].result is None
    assert read.status == "open"


def test_a_locked_log_keeps_the_bet_pending_and_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bets.sqlite"
    log = BetLog(path)
    first = log.record(a_bet(1))
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the log
    try:
        with pytest.raises(BetLogError) as raised:
            log.record(a_bet(2))
        message = str(raised.value)
        assert "\n" not in message
        assert "locked" in message and "bets.pending.jsonl" in message
        pending = (tmp_path / "bets.pending.jsonl").read_text().splitlines()
        assert [json.loads(line)["event_id"] for line in pending] == [2]
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    # Free again: the pending bet goes in before the next one, none lost, none twice.
    log.record(a_bet(3))
    assert [bet.event_id for bet in log.bets()] == [3, 2, first.event_id]
    assert not (tmp_path / "bets.pending.jsonl").exists()


def test_a_file_that_is_not_a_bet_log_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "bets.sqlite"
    path.write_bytes(b"this is not a database, it is a note the trader kept" * 40)
    log = BetLog(path)
    stored = log.record(a_bet())
    assert stored.id == 1
    assert log.warning is not None and "\n" not in log.warning
    assert "set aside as bets.sqlite.bak" in log.warning
    assert (tmp_path / "bets.sqlite.bak").read_bytes().startswith(b"this is not a database")
    assert log.bets() == [stored]


def run_bets(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ODDSTUI_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "oddstui", "bets", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_oddstui_bets_prints_json_and_a_table(tmp_path: Path) -> None:
    log = BetLog(tmp_path / "bets.sqlite")
    stored = log.record(a_bet())
    log.update(stored.with_leg(0, BetLeg("Totals", 2.5, "over", "Pinnacle", 2.1, 48.0, result=1.0)))
    done = run_bets(tmp_path, "--json")
    assert done.returncode == 0, done.stderr
    records = json.loads(done.stdout)
    assert len(records) == 2
    first = records[0]
    assert first["eventId"] == 7 and first["betId"] == 1 and first["leg"] == 1
    assert first["price"] == 2.1 and first["stake"] == 48.0 and first["line"] == 2.5
    assert first["result"] == "won" and first["profit"] == pytest.approx(52.8)
    assert records[1]["result"] == "open" and records[1]["profit"] is None
    table = run_bets(tmp_path)
    assert table.returncode == 0
    assert "Home FC v Away FC" in table.stdout and "+52.80" in table.stdout
    assert table.stdout.strip().splitlines()[-1].startswith("1 bets · 1 open")


def test_oddstui_bets_on_a_locked_log_says_so_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bets.sqlite"
    BetLog(path).record(a_bet())
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        done = run_bets(tmp_path, "--json")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "locked" in done.stderr
    assert "Traceback" not in done.stderr


def test_oddstui_bets_bad_flag(tmp_path: Path) -> None:
    done = run_bets(tmp_path, "--status", "maybe")
    assert done.returncode == 2
    assert "--status" in done.stderr


def test_oddstui_bets_keeps_the_bookmakers_precision_and_no_float_noise(tmp_path: Path) -> None:
    from oddstui.book.exchange import net_back, quoted_back

    paid = net_back(4.7, 0.05)  # what the ticket counts for an exchange's 4.7
    assert 1.0 + (paid - 1.0) / 0.95 == 4.700000000000001  # the plain inverse: float noise
    assert quoted_back(paid, 0.05) == 4.7
    bet = Bet(
        event_id=9,
        placed_at=1_790_000_000.0,
        board="Arbitrage",
        event_name="Home FC v Away FC",
        legs=(
            BetLeg("ML", None, "home", "Bet365", 2.317, 40.0),
            BetLeg("ML", None, "away", "Betfair", 2.3170000000000002, 60.0, commission=0.05),
        ),
    )
    BetLog(tmp_path / "bets.sqlite").record(bet)
    done = run_bets(tmp_path, "--json")
    assert done.returncode == 0, done.stderr
    assert "2.3170000000000002" not in done.stdout
    assert [leg["price"] for leg in json.loads(done.stdout)] == [2.317, 2.317]
    table = run_bets(tmp_path)
    assert table.stdout.count("2.317") == 2 and "2.32 " not in table.stdout
