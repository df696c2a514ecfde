"""`oddstui books` without --json: the bookmakers and the steam events as plain-text tables."""

from __future__ import annotations

from collections.abc import Sequence

from oddstui.book.clean_text import clean
from oddstui.intel.report import IntelReport

STEAM_ROWS = 20


def _seconds(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


def _share(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.0f}%"


def to_table(report: IntelReport, titles: dict[int, str] | None = None) -> str:
    header = ("bookmaker", "lag med", "lag p90", "n", "censored", "led", "upd/mkt-h",
              "margin", "cluster", "stale med", "stale n")
    rows: list[tuple[str, ...]] = [header]
    ordered = sorted(report.books, key=lambda b: (b.lag_median is None, b.lag_median or 0.0,
                                                  b.bookmaker))
    for b in ordered:
        rows.append((
            b.bookmaker + (" (sharp)" if b.sharp else ""),
            _seconds(b.lag_median), _seconds(b.lag_p90), str(b.follows), str(b.censored),
            _share(b.led_share),
            "—" if b.updates_per_hour is None else f"{b.updates_per_hour:.0f}",
            "—" if b.margin_pct is None else f"{b.margin_pct:.1f}%",
            b.cluster, _seconds(b.stale_median), str(b.stale_n),
        ))
    out = [_render(rows)]
    out.append(
        f"\n{report.changes} price changes over {report.seconds:.0f} s, {report.sharp_moves} "
        f"sharp moves; lags in seconds at a timestamp resolution of {report.resolution:g} s.\n"
    )
    if report.steam:
        out.append(f"\nSteam events: {len(report.steam)} (the largest {STEAM_ROWS})\n")
        steam_rows: list[tuple[str, ...]] = [
            ("time", "event", "market", "line", "way", "origin", "clusters", "size (pp)",
             "stale books")
        ]
        for s in sorted(report.steam, key=lambda s: -s.points)[:STEAM_ROWS]:
            key = s.key if isinstance(s.key, tuple) else (None, "", (None, None))
            event = (titles or {}).get(key[0], str(key[0]))
            hdp, label = key[2]
            line = " ".join(str(x) for x in (hdp, label) if x is not None) or "—"
            steam_rows.append((f"{s.time:.0f}", event, str(key[1]), line,
                               "shorter" if s.direction > 0 else "longer", s.origin,
                               str(s.breadth), f"{s.points * 100:.1f}", str(len(s.stale))))
        out.append(_render(steam_rows))
    return "".join(out)


def _render(rows: Sequence[tuple[str, ...]]) -> str:
    cells = [tuple(clean(cell) for cell in row) for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    return "".join("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
                   + "\n" for row in cells)
