"""A backtest shared out among processes finds what one pass finds: every arbitrage, value bet
and alert, with the same counts."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from oddstui.backtest.engine import BacktestReport, run_backtest
from oddstui.backtest.parallel import merge
from oddstui.backtest.partition import Share
from oddstui.book.alert_rules import ArbitrageRule, PriceRule
from oddstui.book.alert_watch import AlertRules
from oddstui.recording.records import FeedMessage, Snapshot
from tests.backtest.built import ml, snapshot, status, totals, updated, write_recording
from tests.backtest.test_backtest_command import oddstui

EVENTS = [11, 12, 13, 14, 15, 16, 17]
BOOKS = ["BookA", "BookB", "BookC", "Pinnacle"]
LISTS = ("alerts", "arbitrages", "value_bets")  # a report's findings, in time order


def _records(seed: int) -> list[Snapshot | FeedMessage]:
    rng = random.Random(seed)
    price = lambda: rng.choice([1.6, 1.8, 1.9, 2.0, 2.05, 2.1, 2.3, 2.6])  # noqa: E731
    quotes = lambda: [ml(price(), price()), totals((2.5, price(), price()))]  # noqa: E731
    records: list[Snapshot | FeedMessage] = [
        snapshot(0.0, {event: {book: quotes() for book in BOOKS} for event in EVENTS})
    ]
    for step in range(1, 600):
        event = rng.choice(EVENTS)
        if rng.random() < 0.02:
            records.append(status(float(step), event, "live"))
        else:
            records.append(updated(float(step), step, event, rng.choice(BOOKS), quotes()))
    return records


def _rules() -> AlertRules:
    rules = AlertRules()
    for event in EVENTS[:4]:
        rules.add_price(PriceRule(event, "ML", "home", 2.2))
        rules.set_arbitrage(ArbitrageRule(event, 1.0))
    return rules


def _found(report: BacktestReport) -> dict[str, Any]:
    return {
        "arbitrages": sorted(repr(arb) for arb in report.arbitrages),
        "value_bets": sorted(repr(bet) for bet in report.value_bets),
        "alerts": sorted(repr(firing) for firing in report.alerts),
        "titles": report.titles,
        "counts": (report.records, report.messages, report.malformed, report.last_time),
    }


@pytest.mark.parametrize("shares", [2, 3])
def test_shares_merged_find_what_one_pass_finds(shares: int) -> None:
    records = _records(seed=shares)
    whole = run_backtest(records, _rules())
    assert whole.arbitrages and whole.value_bets and whole.alerts, "a world this loose has all"
    parts = [run_backtest(records, _rules(), share=Share(i, shares)) for i in range(shares)]
    assert parts
    assert all(part.arbitrages for part in parts), "every share holds events with arbitrages"
    merged = merge(parts)
    assert _found(merged) == _found(whole)
    times = [arb.first_seen for arb in merged.arbitrages]
    assert times == sorted(times)


def test_the_shares_are_dealt_by_work_not_by_id() -> None:
    # By id modulo 2, the three busy matches (even ids, four books each) would all be share
    # 0's. Dealt by work, the busiest share applies well under all of them.
    busy, quiet = [2, 4, 6], [1, 3, 5]
    books = {e: {b: [ml(2.0, 1.9)] for b in (BOOKS if e in busy else BOOKS[:1])} for e in busy}
    books |= {e: {BOOKS[0]: [ml(2.0, 1.9)]} for e in quiet}
    records: list[Snapshot | FeedMessage] = [snapshot(0.0, books)]
    for step in range(1, 400):
        event = busy[step % 3] if step % 10 else quiet[step % 3]
        records.append(updated(float(step), step, event, BOOKS[0], [ml(2.0 + step / 1000, 1.9)]))
    applied = [run_backtest(records, share=Share(i, 2)).messages for i in range(2)]
    assert sum(applied) == 399
    assert max(applied) <= 0.7 * 399, applied


def test_the_manifests_counts_deal_events_seen_only_in_the_feed() -> None:
    # No snapshot: each match is first seen in the feed, all at the start, when no share has
    # work yet. The two busy ones come first and third, and would both be share 0's.
    events = [1, 2, 3, 4]
    counts = {1: 180, 2: 20, 3: 180, 4: 20}
    plan = [e for e in events for _ in range(counts[e] - 1)]  # after one each
    random.Random(1).shuffle(plan)
    records = [updated(0.0, 0, e, BOOKS[0], [ml(2.0, 1.9)]) for e in events]
    records += [
        updated(float(step), step, e, BOOKS[0], [ml(2.0 + step / 1000, 1.9)])
        for step, e in enumerate(plan, start=1)
    ]
    applied = [run_backtest(records, share=Share(i, 2, counts)).messages for i in range(2)]
    assert applied == [200, 200]


def test_the_manifests_bytes_deal_events_by_size_not_by_messages() -> None:
    # Four matches of 50 messages each; 1 and 3 send six markets a message, 2 and 4 one. By
    # their messages (ties in the order given) 1 and 3 are both share 0's; by their bytes not.
    events, big = [1, 2, 3, 4], {1, 3}
    markets = lambda e, step: [  # noqa: E731
        ml(2.0 + step / 1000 + i / 100, 1.9) for i in range(6 if e in big else 1)
    ]
    records = [
        updated(float(step), step, e, BOOKS[0], markets(e, step))
        for step in range(50) for e in events
    ]
    counts = {e: 50 for e in events}
    sizes = {e: sum(len(r.text) for r in records if f'"id":"{e}"' in r.text) for e in events}
    assert sizes[1] > 3 * sizes[2]
    by_messages = [_events_of(records, Share(i, 2, counts)) for i in (0, 1)]
    assert by_messages == [{1, 3}, {2, 4}]
    by_bytes = [_events_of(records, Share(i, 2, counts, sizes)) for i in (0, 1)]
    assert [len(share & big) for share in by_bytes] == [1, 1], by_bytes
    assert by_bytes[0] | by_bytes[1] == set(events)
    # A share made again from what it pickles deals the same (a worker gets it so).
    again = pickle.loads(pickle.dumps(Share(1, 2, counts, sizes)))
    assert _events_of(records, again) == by_bytes[1]


def _events_of(records: list[FeedMessage], share: Share) -> set[int]:
    return {int(r.message["id"]) for r in records if share.take(r) is not None}


def test_the_command_with_two_workers_reports_what_one_worker_does(tmp_path: Path) -> None:
    folder = tmp_path / "rec"
    write_recording(folder, _records(seed=5))
    rules = tmp_path / "rules.toml"
    rules.write_text(
        "".join(
            f'[[price]]\nevent = {e}\nmarket = "ML"\nside = "home"\nthreshold = 2.2\n'
            f"[[arbitrage]]\nevent = {e}\nmin_profit = 1.0\n"
            for e in EVENTS[:4]
        )
    )
    outputs = []
    for workers in ("1", "2"):
        done = oddstui(
            "backtest",
            str(folder),
            "--json",
            "--alerts",
            str(rules),
            "--workers",
            workers,
            home=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        found = {key: sorted(map(json.dumps, report[key])) for key in LISTS}
        found["summary"] = {k: v for k, v in report["summary"].items() if k != "seconds"}
        outputs.append(found)
    assert outputs[0]["arbitrages"] and outputs[0]["alerts"] and outputs[0]["value_bets"]
    assert outputs[0] == outputs[1]
