"""A recording backtested by several processes at once, each over its share of the events.

Each process reads the whole recording (reading is a small part of the work: zstandard, and
each line's JSON checked but its message left as text) and applies only the records of its
events. The shares' reports are merged in time order: the report equals the one
process's, up to the order of findings made at the same instant in different events.
"""

from __future__ import annotations

import heapq
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from copy import deepcopy
from pathlib import Path

from oddstui.backtest.engine import BacktestReport, Judging, collector_paused, run_backtest
from oddstui.backtest.partition import MAX_WORKERS, Share, shares_of
from oddstui.book.alert_watch import AlertRules
from oddstui.recording.reader import open_recording


def default_workers() -> int:
    """One process a core the machine lets this one use, up to `MAX_WORKERS`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, cores))


def backtest_recording(
    path: str | Path,
    rules: AlertRules | None = None,
    *,
    workers: int = 1,
    judging: Judging | None = None,
) -> BacktestReport:
    """The backtest of the recording at `path` in `workers` processes (1: this one)."""
    started = time.perf_counter()
    recording = open_recording(path)
    complete = recording.manifest.complete_markets
    if workers <= 1:
        report = run_backtest(
            recording.records(), rules, judging=judging, complete_markets=complete
        )
        report.seconds = time.perf_counter() - started  # from the same start as with workers
        return report
    shares = shares_of(recording.manifest, workers)

    # fork where there is one: a worker starts at once, without importing the project again.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(workers - 1, mp_context=context) as pool, collector_paused():
        futures = [
            pool.submit(_share, recording.folder, rules, judging, shares[index])
            for index in range(1, workers)
        ]
        # This process takes the first share itself: one process less to start, and one report
        # less to send back. Its own copy of the rules: the others are sent theirs as it runs.
        reports = [_share(recording.folder, deepcopy(rules), judging, shares[0])]
        reports += [future.result() for future in futures]  # unpickled: many objects, no cycles
        merged = merge(reports)
    merged.seconds = time.perf_counter() - started
    return merged


def _share(
    folder: Path, rules: AlertRules | None, judging: Judging | None, share: Share
) -> BacktestReport:
    recording = open_recording(folder)
    return run_backtest(
        recording.records(),
        rules,
        judging=judging,
        complete_markets=recording.manifest.complete_markets,
        share=share,
    )


def merge(reports: list[BacktestReport]) -> BacktestReport:
    """The shares' reports as one: findings in time order (each share's are already)."""
    first = reports[0]
    merged = BacktestReport(
        records=first.records,  # every share reads every record
        messages=sum(report.messages for report in reports),
        malformed=sum(report.malformed for report in reports),
        first_time=first.first_time,
        last_time=first.last_time,
    )
    merged.alerts = list(heapq.merge(*(r.alerts for r in reports), key=lambda a: a.time))
    merged.arbitrages = list(
        heapq.merge(*(r.arbitrages for r in reports), key=lambda a: a.first_seen)
    )
    merged.value_bets = list(heapq.merge(*(r.value_bets for r in reports), key=lambda v: v.time))
    for report in reports:
        merged.titles.update(report.titles)
    return merged
