"""Write an SVG of every screen into screenshots/, from the same app the snapshot tests use.

Run from the repository root: `python screenshots/make.py` (add `--size 80x24` for the small
terminal). The app runs on the recorded state of `oddstui serve --seed 42`
(tests/tui/data/recorded.json) with time frozen, so the pictures only change when the UI does.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.tui.recorded import live_ids, load, recorded_app  # noqa: E402


async def shoot(name: str, mode: str, action: str | None, size: tuple[int, int], out: Path) -> Path:
    state = load()
    with tempfile.TemporaryDirectory() as folder:
        app = recorded_app(Path(folder), start_mode=mode)
        async with app.run_test(size=size) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause(0.3)
            if action == "leagues":
                app.open_sport("football")
            elif action == "events":
                app.open_league("football", state["league"])
            elif action == "event":
                app.open_event(live_ids(state)[0])
            elif action == "help":
                app.action_help()
            await app.workers.wait_for_complete()
            await pilot.pause(0.4)
            path = out / f"{name}.svg"
            path.write_text(app.export_screenshot(title=f"oddstui · {name}"))
    return path


SHOTS = [
    ("live", "live", None),
    ("sports", "sports", None),
    ("leagues", "sports", "leagues"),
    ("events", "sports", "events"),
    ("event", "live", "event"),
    ("watchlist", "watchlist", None),
    ("arbitrage", "arbitrage", None),
    ("help", "live", "help"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="120x40", help="terminal size, e.g. 80x24")
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    os.environ["TZ"] = "UTC"
    time.tzset()
    out = ROOT / "screenshots"
    suffix = "" if (width, height) == (120, 40) else f"-{width}x{height}"
    for name, mode, action in SHOTS:
        path = asyncio.run(shoot(name + suffix, mode, action, (width, height), out))
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
