"""A fixed small recording for `oddstui books`, built from a seeded random walk, and the JSON
the command printed over it (tests/intel/data/books_golden.json), so that a change meant to
make the engine faster is held to the same answer.

Six events (tennis: a two-way ML; football: a three-way ML and a Totals line), the two sharp
books, twelve soft books following the true price at their own lag, two white labels copying a
parent after a short delay, kick-offs half way, and a bookmaker withdrawing a market now and
then. A change to what the engine measures (a definition, not its speed) changes the answer:
then write the file again, and say so in the commit:

    python -m tests.intel.golden --write
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson

from oddstui.recording.records import Snapshot
from tests.backtest.built import AT, event, status, updated, write_recording

GOLDEN = Path(__file__).parent / "data" / "books_golden.json"
SHARP = {"Pinnacle": 0.2, "SingBet": 0.4}
SOFT = {f"Soft {i:02}": 1.0 + 2.5 * i for i in range(12)}
SISTERS = {"Copy A": ("Soft 00", 0.6), "Copy B": ("Soft 05", 1.2)}
EVENTS = {1: "tennis", 2: "tennis", 3: "football", 4: "football", 5: "tennis", 6: "football"}
STEPS = 40
KICK_OFF = 400.0


def _margin(book: str) -> float:
    return 0.02 if book in SHARP else 0.04 + (sum(map(ord, book)) % 7) / 100.0


def _prices(probs: list[float], margin: float, step: float = 0.01) -> list[float]:
    return [round(round(1.0 / (p * (1.0 + margin)) / step) * step, 2) for p in probs]


def _markets(sport: str, probs: dict[str, list[float]], margin: float) -> list[dict[str, Any]]:
    ml = _prices(probs["ML"], margin)
    sides = ("home", "away") if sport == "tennis" else ("home", "draw", "away")
    markets = [{"name": "ML", "updatedAt": AT, "odds": [dict(zip(sides, ml, strict=True))]}]
    if sport == "football":
        over, under = _prices(probs["Totals"], margin)
        markets.append({"name": "Totals", "updatedAt": AT,
                        "odds": [{"hdp": 2.5, "over": over, "under": under}]})
    return markets


def _walk(rng: random.Random, sport: str) -> list[tuple[float, dict[str, list[float]]]]:
    """(time, true probabilities) at each step: small drifts and now and then a big move."""
    home = rng.uniform(0.3, 0.6)
    over = rng.uniform(0.4, 0.6)
    t = 0.0
    out = []
    for _ in range(STEPS):
        t += rng.uniform(5.0, 25.0)
        jump = rng.choice((0.0, 0.0, 0.01, -0.01, 0.06, -0.06))
        home = min(0.8, max(0.15, home + jump))
        over = min(0.75, max(0.25, over + rng.choice((0.0, 0.02, -0.02, 0.05))))
        ml = [home, 1.0 - home] if sport == "tennis" else [home, 0.25, 0.75 - home]
        out.append((t, {"ML": ml, "Totals": [over, 1.0 - over]}))
    return out


def build(folder: Path, seed: int = 34) -> int:
    """Writes the recording into `folder`; returns its feed messages."""
    rng = random.Random(seed)
    books = [*SHARP, *SOFT, *SISTERS]
    walks = {event_id: _walk(rng, sport) for event_id, sport in EVENTS.items()}
    opening = {
        event_id: {book: _markets(EVENTS[event_id], walks[event_id][0][1], _margin(book))
                   for book in books}
        for event_id in EVENTS
    }
    timed: list[tuple[float, int, Any]] = []
    order = 0
    for event_id, walk in walks.items():
        sport = EVENTS[event_id]
        for t, probs in walk[1:]:
            quoted: dict[str, float] = {}
            for book, lag in {**SHARP, **SOFT}.items():
                at = t + lag * rng.uniform(0.7, 1.3) + 0.001 * rng.randrange(1000)
                quoted[book] = at
                gone = book not in SHARP and rng.random() < 0.03
                markets = [] if gone else _markets(sport, probs, _margin(book))
                timed.append((at, order := order + 1, (event_id, book, markets)))
            for sister, (parent, delay) in SISTERS.items():
                at = quoted[parent] + delay * rng.uniform(0.8, 1.2)
                timed.append((at, order := order + 1,
                              (event_id, sister, _markets(sport, probs, _margin(sister)))))
    for event_id in EVENTS:
        if event_id % 2:
            timed.append((KICK_OFF + event_id, order := order + 1, ("live", event_id)))
    timed.sort(key=lambda item: (item[0], item[1]))
    events = tuple(event(e, sport=EVENTS[e]) for e in EVENTS)
    records: list[Any] = [
        Snapshot(0.0, events, tuple({**e, "bookmakers": opening[e["id"]]} for e in events))
    ]
    messages = 0
    for seq, (at, _, item) in enumerate(timed, start=1):
        if item[0] == "live":
            records.append(status(at, item[1], "live"))
        else:
            event_id, book, markets = item
            records.append(updated(at, seq, event_id, book, markets))
        messages += 1
    write_recording(folder, records)
    return messages


def books_json(folder: Path, *flags: str) -> dict[str, Any]:
    """`oddstui books FOLDER --json` in a fresh process, without the seconds it took."""
    done = subprocess.run(
        [sys.executable, "-m", "oddstui", "books", str(folder), "--json", *flags],
        capture_output=True, check=True, timeout=120,
        env={**os.environ, "ODDSTUI_HOME": str(folder.parent)},
    )
    data: dict[str, Any] = orjson.loads(done.stdout)
    del data["summary"]["runSeconds"]
    return data


def main() -> None:
    import tempfile

    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.intel.golden --write")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "rec"
        build(folder)
        data = books_json(folder, "--workers", "1")
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_bytes(orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n")
    print(f"wrote {GOLDEN}: {len(data['bookmakers'])} bookmakers, {len(data['steam'])} steam")


if __name__ == "__main__":
    main()
