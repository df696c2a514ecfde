"""Write an SVG of every screen into screenshots/, from the same app the snapshot tests use.

Run from the repository root: `python screenshots/make.py` (add `--size 80x24` for the small
terminal, `--size 200x50 --only live,event` for the wide one). The app runs on answers recorded
from `oddstui serve --seed 42` (tests/tui/data/recorded.json, made by
`python -m tests.tui.record_state`) with time frozen, so the pictures only change when the UI
does.
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

from tests.tui.alerts_recorded import SHOTS as ALERT_SHOTS  # noqa: E402
from tests.tui.alerts_recorded import alert_screenshot  # noqa: E402
from tests.tui.boards_recorded import board_screenshot  # noqa: E402
from tests.tui.event_recorded import event_screenshot  # noqa: E402
from tests.tui.intel_recorded import SHOTS as INTEL_SHOTS  # noqa: E402
from tests.tui.intel_recorded import intel_screenshot  # noqa: E402
from tests.tui.record_settings import SHOTS, settings_screenshot  # noqa: E402
from tests.tui.recorded import SCREENS, load, recorded_app  # noqa: E402


async def shoot(index: int, size: tuple[int, int], path: Path) -> None:
    name, mode, action = SCREENS[index]
    if name == "event":  # its own recording: a book with prices and the crests
        return await event_screenshot(size, path)
    state = load()
    with tempfile.TemporaryDirectory() as folder:
        app = recorded_app(Path(folder), start_mode=mode)
        async with app.run_test(size=size) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause(0.3)
            if action is not None:
                action(app, state)
            for _ in range(2):
                await app.workers.wait_for_complete()
                await pilot.pause(0.4)
            path.write_text(app.export_screenshot(title=f"oddstui · {name}"))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", default="120x40", help="terminal size, e.g. 80x24")
    parser.add_argument("--only", default="", help="these screens only, e.g. live,event")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    width, height = (int(part) for part in args.size.split("x"))
    os.environ["TZ"] = "UTC"
    time.tzset()
    suffix = "" if (width, height) == (120, 40) else f"-{width}x{height}"
    for index, (name, _, _) in enumerate(SCREENS):
        if only and name not in only:
            continue
        path = ROOT / "screenshots" / f"{name}{suffix}.svg"
        asyncio.run(shoot(index, (width, height), path))
        print(f"wrote {path.relative_to(ROOT)}")
    for name in ("ticket", "search"):  # modals over the boards, from the boards' recording
        if only and name not in only:
            continue
        path = ROOT / "screenshots" / f"{name}{suffix}.svg"
        asyncio.run(board_screenshot(name, (width, height), path))
        print(f"wrote {path.relative_to(ROOT)}")
    for name in INTEL_SHOTS:  # Books and Stale lines over a staged session
        if only and name not in only:
            continue
        path = ROOT / "screenshots" / f"{name}{suffix}.svg"
        asyncio.run(intel_screenshot(name, (width, height), path))
        print(f"wrote {path.relative_to(ROOT)}")
    for name in ALERT_SHOTS:  # the alert rules screen, a rule opened for editing
        if only and name not in only:
            continue
        path = ROOT / "screenshots" / f"{name}{suffix}.svg"
        asyncio.run(alert_screenshot(name, (width, height), path))
        print(f"wrote {path.relative_to(ROOT)}")
    for name, _ in SHOTS:  # settings, bookmakers, movement, closing odds, alert rule
        if only and name not in only:
            continue
        path = ROOT / "screenshots" / f"{name}{suffix}.svg"
        asyncio.run(settings_screenshot(name, (width, height), path))
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
