"""The backtest's report: one JSON object (`alerts`, `arbitrages`, `value_bets`) or tables."""

from __future__ import annotations

from typing import Any

from oddstui.backtest.engine import BacktestReport
from oddstui.book.clean_text import clean
from oddstui.book.settlement import VERDICTS
from oddstui.book.state import LineKey
from oddstui.recording.manifest import iso


def _line(line: LineKey) -> dict[str, Any]:
    return {"hdp": line[0], "label": line[1]}


def to_json(report: BacktestReport) -> dict[str, Any]:
    titles = report.titles
    settled = [v.profit for v in report.value_bets if v.profit is not None]
    return {
        "alerts": [
            {
                "time": iso(f.time),
                "kind": f.alert.kind,
                "rule": f.alert.rule.describe() if f.alert.rule is not None else None,
                "eventId": f.alert.event_id,
                "event": f.event,
                "price": f.alert.price,
                "message": f.alert.message,
            }
            for f in report.alerts
        ],
        "arbitrages": [
            {
                "eventId": a.event_id,
                "event": titles.get(a.event_id),
                "market": a.market,
                **_line(a.line),
                "firstSeen": iso(a.first_seen),
                "lastSeen": iso(a.last_seen),
                "durationSeconds": round(a.duration, 3),
                "openAtEnd": a.open_at_end,
                "bestProfitPct": a.best_profit,
                "legs": [{"side": s, "price": p, "bookmaker": b} for s, p, b in a.legs],
                "suspect": bool(a.suspect),
                "suspectReason": a.suspect or None,
            }
            for a in report.arbitrages
        ],
        "value_bets": [
            {
                "time": iso(v.time),
                "eventId": v.event_id,
                "event": titles.get(v.event_id),
                "market": v.market,
                **_line(v.line),
                "bookmaker": v.bookmaker,
                "side": v.side,
                "price": v.price,
                "fair": v.fair,
                "evPct": v.ev,
                "inPlay": v.in_play,
                "closingFair": v.closing_fair,
                "closedAt": v.closed_at or None,
                "clvPct": v.clv,
                "result": None if v.result is None else VERDICTS[v.result],
                "profitPerUnit": v.profit,
                "suspect": bool(v.suspect),
                "suspectReason": v.suspect or None,
            }
            for v in report.value_bets
        ],
        "summary": {
            "records": report.records,
            "messages": report.messages,
            "malformed": report.malformed,
            "from": None if report.first_time is None else iso(report.first_time),
            "to": None if report.last_time is None else iso(report.last_time),
            "seconds": round(report.seconds, 3),
            "valueBetsSettled": len(settled),
            "valueBetsProfitPerUnit": round(sum(settled), 6),
        },
    }


def to_table(report: BacktestReport) -> str:
    out: list[str] = []
    data = to_json(report)
    summary = data["summary"]
    out.append(
        f"{summary['messages']} messages from {summary['from']} to {summary['to']}"
        f" ({summary['malformed']} malformed) in {summary['seconds']:.2f} s"
    )
    out.append(f"\nAlerts ({len(data['alerts'])})")
    out += _rows(
        ("time", "kind", "rule", "event", "price"),
        [
            (a["time"], a["kind"], a["rule"] or "", a["event"], _num(a["price"]))
            for a in data["alerts"]
        ],
    )
    out.append(
        f"\nArbitrages ({len(data['arbitrages'])}), profit % = (1/S - 1) x 100, exchanges net of"
        " commission; * suspect"
    )
    out += _rows(
        ("first seen", "last seen", "secs", "profit %", "event", "market", "legs"),
        [
            (
                a["firstSeen"],
                a["lastSeen"] + ("+" if a["openAtEnd"] else ""),
                f"{a['durationSeconds']:.1f}",
                f"{a['bestProfitPct']:.2f}" + ("*" if a["suspect"] else ""),
                a["event"] or str(a["eventId"]),
                _market(a),
                ", ".join(f"{x['side']} {x['price']:g} {x['bookmaker']}" for x in a["legs"]),
            )
            for a in data["arbitrages"]
        ],
    )
    out.append(
        f"\nValue bets ({len(data['value_bets'])}), CLV = price / closing fair - 1; * suspect; "
        f"{summary['valueBetsSettled']} settled from the final score, "
        f"P&L {summary['valueBetsProfitPerUnit']:+.2f} units"
    )
    out += _rows(
        (
            "time",
            "event",
            "market",
            "bookmaker",
            "side",
            "price",
            "fair",
            "EV %",
            "CLV %",
            "result",
        ),
        [
            (
                v["time"],
                v["event"] or str(v["eventId"]),
                _market(v),
                v["bookmaker"],
                v["side"],
                f"{v['price']:g}",
                f"{v['fair']:.3f}",
                f"{v['evPct']:.2f}" + ("*" if v["suspect"] else ""),
                "" if v["clvPct"] is None else f"{v['clvPct']:.2f}",
                v["result"] or "",
            )
            for v in data["value_bets"]
        ],
    )
    return "\n".join(out) + "\n"


def _market(row: dict[str, Any]) -> str:
    hdp = "" if row["hdp"] is None else f" {row['hdp']:g}"
    label = f" {row['label']}" if row["label"] else ""
    return f"{row['market']}{hdp}{label}"


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def _rows(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    if not rows:
        return ["  (none)"]
    cells = [tuple(clean(cell) for cell in row) for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(header)]
    lines = ["  " + "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True))]
    for row in cells:
        lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
    return lines
