"""`oddstui arbs|value|odds|dropping|movements`: exit statuses, one-line errors, JSON and plain
tables, and the built-in service when no key is set."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from oddstui.book.exchange import paid
from oddstui.cli import main
from oddstui.config import load_settings
from tests.api.conftest import PAID_KEY, Service
from tests.waiting import eventually

SELECTION = {"Bet365", "Pinnacle", "Unibet", "William Hill", "SingBet"}
NOTHING = "nothing to show\n"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ODDSTUI_HOME", str(tmp_path))
    monkeypatch.delenv("ODDSTUI_API_KEY", raising=False)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    "url", ["localhost:8765/v3", "ftp://h/v3", "http://", "http://h:notaport/v3", "http://h:8765"]
)
def test_bad_base_url_is_one_line_and_exit_2(home, capsys, monkeypatch, url):
    monkeypatch.setenv("ODDSTUI_API_KEY", PAID_KEY)
    status, out, err = run(capsys, "arbs", "--json", "--base-url", url)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "--base-url" in err


def test_missing_key_is_one_line_and_exit_2(home, capsys):
    status, out, err = run(capsys, "odds", "5", "--base-url", "http://127.0.0.1:9/v3")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "ODDSTUI_API_KEY" in err


def test_key_from_the_config_file_is_used(home, capsys):
    (home / "config.toml").write_text('api_key = "sk-from-config-123456"\n')
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    status, out, err = run(capsys, "arbs", "--base-url", f"http://127.0.0.1:{port}/v3")
    # The key was found (not exit 2); the closed port is a service error (exit 1).
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "sk-from-config-123456" not in err


def test_broken_config_is_exit_2(home, capsys):
    (home / "config.toml").write_text("api_key = [unclosed\n")
    status, _, err = run(capsys, "arbs", "--base-url", "http://127.0.0.1:9/v3")
    assert status == 2 and err.count("\n") == 1 and "config.toml" in err


def test_wrong_key_is_exit_1_without_the_key(service: Service, home, capsys, monkeypatch):
    monkeypatch.setenv("ODDSTUI_API_KEY", "sk-wrong-key-9876543210")
    status, out, err = run(capsys, "value", "--bookmaker", "Bet365", "--base-url", service.base_url)
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "401" in err
    assert "sk-wrong-key-9876543210" not in err


def test_arbs_json_uses_the_account_selection(service: Service, home, capsys, monkeypatch):
    monkeypatch.setenv("ODDSTUI_API_KEY", PAID_KEY)

    def arbs_json() -> list:
        status, out, err = run(
            capsys, "arbs", "--json", "--limit", "500", "--base-url", service.base_url
        )
        assert status == 0, err
        return json.loads(out)

    arbs = eventually(arbs_json, "arbitrage among the account's books")
    assert isinstance(arbs, list) and len(arbs) <= 500
    for arb in arbs:
        assert {leg["bookmaker"] for leg in arb["legs"]} <= SELECTION
        assert arb["profit_margin"] > 0


def test_value_json_and_table(service: Service, home, capsys, monkeypatch):
    monkeypatch.setenv("ODDSTUI_API_KEY", PAID_KEY)

    def value(*flags: str) -> str:
        status, out, err = run(
            capsys, "value", "--bookmaker", "Bet365", *flags, "--base-url", service.base_url
        )
        assert status == 0, err
        return out

    bets = eventually(lambda: json.loads(value("--json")), "Bet365 value bets")
    assert all(bet["bookmaker"] == "Bet365" for bet in bets)
    # The world moves between the two calls, so the table is checked on its own terms.
    out = eventually(value, "a table of Bet365 value bets", lambda out: out != NOTHING)
    header, *rows = out.splitlines()
    assert header.split() == ["EV", "EVENT", "MARKET", "SIDE", "PRICE", "BOOKMAKER"]
    assert rows and all(row.split()[-1] == "Bet365" for row in rows)


async def _event_quoted_by_pinnacle(service: Service) -> int:
    """An event that Pinnacle quotes (live events carry only an in-play subset of books)."""
    from oddstui.api import ApiClient

    async with ApiClient(service.base_url, PAID_KEY) as api:
        # Pending ones: a finished match is quoted no more (its closing prices are history).
        events = await api.events("football", status="pending", limit=30)
        for start in range(0, len(events), 10):
            chunk = [event.id for event in events[start : start + 10]]
            for record in await api.odds_multi(chunk, ["Pinnacle"]):
                if record.bookmakers.get("Pinnacle"):
                    return record.event.id
    raise AssertionError("no football event quoted by Pinnacle")


def test_odds_json_and_table(service: Service, home, capsys, monkeypatch):
    import asyncio

    event_id = asyncio.run(_event_quoted_by_pinnacle(service))
    monkeypatch.setenv("ODDSTUI_API_KEY", PAID_KEY)
    status, out, err = run(capsys, "odds", str(event_id), "--json", "--base-url", service.base_url)
    assert status == 0, err
    record = json.loads(out)
    assert record["event"]["id"] == event_id
    assert set(record["bookmakers"]) <= SELECTION and record["bookmakers"]
    status, out, _ = run(
        capsys, "odds", str(event_id), "--bookmakers", "Pinnacle", "--base-url", service.base_url
    )
    assert status == 0
    lines = out.splitlines()
    assert lines[1].split() == ["BOOKMAKER", "MARKET", "LINE", "PRICES"]
    assert all(line.startswith("Pinnacle") for line in lines[2:]) and len(lines) > 2


def test_unknown_event_is_bad_input_exit_2(service: Service, home, capsys, monkeypatch):
    monkeypatch.setenv("ODDSTUI_API_KEY", PAID_KEY)
    status, out, err = run(capsys, "odds", "987654321987", "--base-url", service.base_url)
    assert status == 2 and out == "" and err.count("\n") == 1 and "404" in err


def test_the_real_entry_point(service: Service, tmp_path: Path):
    env = {**os.environ, "ODDSTUI_HOME": str(tmp_path), "ODDSTUI_API_KEY": PAID_KEY}
    done = subprocess.run(
        [sys.executable, "-m", "oddstui", "arbs", "--json", "--base-url", service.base_url],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert isinstance(json.loads(done.stdout), list)


def test_tables_show_network_names_as_plain_text():
    from oddstui.api.models import parse_odds_record
    from oddstui.batch_output import odds_rows as _odds_rows
    from tests.api.test_models import RECORD

    hostile = dict(RECORD, home="\x1b[2J\x1b[31mEvil [bold]FC", away="Bodø/Glimt & Co")
    lines = _odds_rows(parse_odds_record(hostile))
    assert not any("\x1b" in line for line in lines)
    assert "[bold]FC v Bodø/Glimt & Co" in lines[0]
    assert any(line.split()[:3] == ["Bet365", "Spread", "-1.5"] for line in lines)
    assert any(line.split()[:3] == ["Bet365", "Spread", "+0.25"] for line in lines)
    assert any(line.split()[:3] == ["Bet365", "Totals", "2.5"] for line in lines)


def test_dropping_json_and_table(service: Service, home, capsys, monkeypatch):
    monkeypatch.setenv("ODDSTUI_API_KEY", PAID_KEY)
    flags = ["--window", "opening", "--limit", "20", "--base-url", service.base_url]

    def dropping(*more: str) -> str:
        status, out, err = run(capsys, "dropping", *more, *flags)
        assert status == 0, err
        return out

    items = eventually(lambda: json.loads(dropping("--json")), "dropping odds")
    assert isinstance(items, list) and len(items) <= 20
    for item in items:
        assert item["drop_since_opening"] >= 0 and item["opening"] >= item["current"]
        assert {"event_id", "market_name", "bet_side", "updated_at_ms"} <= set(item)
    out = eventually(
        lambda: dropping("--markets", "Totals"), "a table of Totals drops", lambda o: o != NOTHING
    )
    header, *rows = out.splitlines()
    assert header.split()[:4] == ["DROP", "EVENT", "MARKET", "SIDE"]
    assert rows and all("Totals" in row for row in rows)


def test_movements_json_and_table(service: Service, home, capsys, monkeypatch):
    import asyncio

    event_id = asyncio.run(_event_quoted_by_pinnacle(service))
    monkeypatch.setenv("ODDSTUI_API_KEY", PAID_KEY)
    flags = ["--bookmaker", "Pinnacle", "--market", "ML", "--base-url", service.base_url]
    status, out, err = run(capsys, "movements", str(event_id), "--json", *flags)
    assert status == 0, err
    moves = json.loads(out)
    assert moves["event_id"] == event_id and moves["bookmaker"] == "Pinnacle"
    assert moves["opening"] is not None and set(moves["opening"]["prices"]) >= {"home", "away"}
    status, out, _ = run(capsys, "movements", str(event_id), *flags)
    assert status == 0
    header, columns, opening, *_ = out.splitlines()
    assert header == f"event {event_id} at Pinnacle"
    assert columns.split()[:3] == ["TIME", "(UTC)", "LINE"]
    assert opening.split()[2] == "opening" and "home" in opening


@pytest.mark.parametrize(
    "argv",
    [
        ["dropping", "--window", "6h"],
        ["dropping", "--limit", "500"],
        ["dropping", "--min-drop", "-3"],
        ["movements", "12"],
        ["movements", "x", "--bookmaker", "Bet365"],
    ],
)
def test_bad_batch_flags_are_one_line_and_exit_2(home, capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1


def test_with_no_key_the_batch_commands_ask_the_built_in_service(home, capsys):
    status, out, err = run(capsys, "dropping", "--json", "--limit", "5")
    assert status == 0, err
    assert err.count("\n") == 1 and "built-in service" in err
    items = json.loads(out)
    # The built-in world starts warm: lines have already dropped and arbitrages are open.
    assert isinstance(items, list) and 0 < len(items) <= 5
    for item in items:
        assert item["drop_since_opening"] >= 0 and item["opening"] >= item["current"]
    status, out, err = run(capsys, "arbs", "--json")
    assert status == 0 and "built-in service" in err
    arbs = json.loads(out)
    assert isinstance(arbs, list) and arbs
    commission = load_settings().exchange_commission
    for arb in arbs:
        assert len(arb["legs"]) >= 2 and arb["profit_margin"] > 0
        # The desk's count: an exchange leg at what it pays, net of the trader's commission.
        implied = sum(1 / paid(leg["bookmaker"], leg["odds"], commission) for leg in arb["legs"])
        assert arb["profit_margin"] == pytest.approx((1 / implied - 1) * 100, abs=0.01)


def test_odds_prints_each_book_at_its_own_precision(service: Service, home, capsys, monkeypatch):
    """`1.90` stays `1.90` (not `1.9`), and a book quoting three places keeps all three."""
    import asyncio

    import httpx

    event_id = asyncio.run(_event_quoted_by_pinnacle(service))
    books = ",".join(sorted(SELECTION))
    raw = httpx.get(
        f"{service.base_url}/odds",
        params={"eventId": event_id, "bookmakers": books, "apiKey": PAID_KEY},
        timeout=10,
    ).json()
    wire_places = {
        book: {
            len(text.split(".")[1])
            for market in markets
            for entry in market["odds"]
            for side, text in entry.items()
            if isinstance(text, str) and "." in text and side not in ("label",)
        }
        for book, markets in raw["bookmakers"].items()
    }
    assert wire_places and all(len(places) == 1 for places in wire_places.values()), wire_places
    monkeypatch.setenv("ODDSTUI_API_KEY", PAID_KEY)
    status, out, err = run(
        capsys, "odds", str(event_id), "--bookmakers", books, "--base-url", service.base_url
    )
    assert status == 0, err
    seen: dict[str, set[int]] = {}
    for line in out.splitlines()[2:]:
        book = next(name for name in SELECTION if line.startswith(name))
        prices = line[len(book) :].split()
        # "... over 1.900  under 1.950": every token after a side name is a price.
        for side, price in zip(prices, prices[1:], strict=False):
            if side in ("home", "away", "draw", "over", "under", "yes", "no"):
                seen.setdefault(book, set()).add(len(price.split(".")[1]))
    assert seen and seen == {book: wire_places[book] for book in seen}
