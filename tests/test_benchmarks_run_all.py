"""`benchmarks/run_all.py` turns the benchmarks' FIGURES lines into one table of medians."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture
def run_all(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import run_all

    return run_all


def test_every_figure_of_every_run_is_gathered_by_row(run_all) -> None:  # type: ignore[no-untyped-def]
    outputs = [
        'text\nFIGURES {"row": "a", "p99_ms": 20.0, "rate": [100, 300]}\n'
        'FIGURES {"row": "b", "p99_ms": 5}\n',
        'FIGURES {"row": "a", "p99_ms": 10.0, "rate": [200]}\n',
    ]
    rows = run_all.gather(outputs)
    assert list(rows) == ["a", "b"]
    assert rows["a"] == {"p99_ms": [20.0, 10.0], "rate": [100.0, 300.0, 200.0]}
    assert run_all.shown(rows["a"]["rate"]) == "200 (100–300)"
    assert run_all.shown([4.0]) == "4"
    assert run_all.shown([19_851.2, 21_884.0, 19_135.0]) == "19,851 (19,135–21,884)"


def test_a_table_row_names_its_runs_target_and_command(run_all) -> None:  # type: ignore[no-untyped-def]
    bench = run_all.Benchmark("x", ("relay.py", "--clients", "50"), 3, "p99 ≤ 50 ms")
    (row,) = run_all.table_rows(
        bench, ['FIGURES {"row": "relay", "p99_ms": [30, 40, 50]}'], "2026-11-27 23:00"
    )
    assert row == (
        "| relay | p99_ms 40.0 (30.0–50.0) | 3 | p99 ≤ 50 ms | 2026-11-27 23:00 | "
        "`python benchmarks/relay.py --clients 50` |"
    )


def test_a_partial_run_keeps_the_other_rows_of_the_page(run_all, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`--only` measures what it names; every other row stays as it was, with its own date."""
    kept_row = "| old | p99_ms 1 | 1 | t | 2026-01-01 00:00, abc, load 0.1–0.2 | `{}` |"
    page = tmp_path / "benchmarks.md"
    commands = {bench.name: bench.command for bench in run_all.BENCHMARKS}
    page.write_text(
        run_all.page([kept_row.format(commands["grading"]), kept_row.format(commands["web"])])
    )
    measured = run_all.BENCHMARKS[0]
    monkeypatch.setattr(
        run_all, "run", lambda bench: (['FIGURES {"row": "new", "p50_ms": 2}'], "")
    )
    assert run_all.main(["--only", measured.name, "--out", str(page)]) == 0
    rows = run_all.rows_on_page(page.read_text())
    assert rows[commands["grading"]] == [kept_row.format(commands["grading"])]
    assert rows[commands["web"]] == [kept_row.format(commands["web"])]
    (new,) = rows[measured.command]
    assert new.startswith("| new | p50_ms 2 | 1 |")


def test_every_listed_benchmark_exists_and_emits_figures(run_all) -> None:  # type: ignore[no-untyped-def]
    assert run_all.BENCHMARKS
    for bench in run_all.BENCHMARKS:
        source = (BENCHMARKS / bench.args[0]).read_text()
        assert "emit(" in source, f"{bench.args[0]} prints no FIGURES line for run_all"


def test_an_unknown_name_is_one_line_and_exit_2(run_all, capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as stopped:
        run_all.main(["--only", "nosuch"])
    assert stopped.value.code == 2
    assert "--only: no benchmark named nosuch" in capsys.readouterr().err
    assert sys.modules["run_all"].PAGE.name == "benchmarks.md"
