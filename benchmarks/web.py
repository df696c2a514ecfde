"""`oddstui web` in headless Chromium: keystroke-to-screen round trip, and memory per session.

Starts `oddstui web --demo` (the built-in world, the relay in-process), opens the printed address
in the system's Chromium (Selenium), and presses 1 and 2 in turn (Sports, Live), `--presses`
times. For each press it reports:
  - key → desk: from the key sent to the page until the desk's `ODDSTUI_STATE_FILE` names the
    new screen (the desk process has switched; Selenium's command included);
  - key → screen: in the page, from the `keydown` until the page's WebSocket has received 4 KB
    after it (the new screen's paint; a clock tick is about 100 bytes).
Then it opens `--tabs` tabs in all and reports each desk process's memory (RSS and USS, which
counts only its own pages), and what the `oddstui web` process itself grew by.

    python benchmarks/web.py [--presses 20] [--tabs 4]

The machine is shared: the load average is printed with the figures; quote it with them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from measure import emit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PAINT_BYTES = 4096  # the new screen's paint: this much output after the key (a tick is ~100 B)
#: Injected before the page's own scripts: times of keydowns and of large binary frames.
WATCH = """
window.__keys = []; window.__frames = [];
document.addEventListener("keydown", () => window.__keys.push(performance.now()), true);
const Native = window.WebSocket;
window.WebSocket = function (...args) {
  const socket = new Native(...args);
  socket.addEventListener("message", (e) => {
    if (typeof e.data !== "string") window.__frames.push([performance.now(), e.data.byteLength]);
  });
  return socket;
};
window.WebSocket.prototype = Native.prototype;
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=20)
    parser.add_argument("--tabs", type=int, default=4)
    args = parser.parse_args()

    import psutil

    from tests.web.browsing import first_byte, open_browser, press, until
    from tests.web.webserving import WebDesk

    folder = Path(tempfile.mkdtemp(prefix="oddstui-web-bench-"))
    with WebDesk(folder, "--demo", "--sessions", str(max(args.tabs, 1))) as web:
        server = psutil.Process(web.process.pid)
        base_rss = server.memory_info().rss
        browser = open_browser()
        try:
            browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
            browser.get(web.url)
            until(lambda: first_byte(browser), "first bytes")
            until(lambda: (web.screen() or {}).get("mode") == "live", "the Live screen")
            time.sleep(3)  # let the first loads settle
            to_desk, to_screen = [], []
            for n in range(args.presses):
                key, mode = ("1", "sports") if n % 2 == 0 else ("2", "live")
                keys_before = browser.execute_script("return window.__keys.length")
                start = time.perf_counter()
                press(browser, key)
                until(lambda m=mode: (web.screen() or {}).get("mode") == m, mode, step=0.002)
                to_desk.append((time.perf_counter() - start) * 1000)
                time.sleep(1.0)  # the new screen's paint has arrived, even on a loaded machine
                pressed, frame = browser.execute_script(
                    "const k = window.__keys[arguments[0]]; let total = 0;"
                    "for (const [t, size] of window.__frames) {"
                    "  if (t > k && (total += size) >= arguments[1]) return [k, t]; }"
                    "return [k, null];",
                    keys_before,
                    PAINT_BYTES,
                )
                if pressed is not None and frame is not None:
                    to_screen.append(frame - pressed)
            for _ in range(args.tabs - 1):
                browser.switch_to.new_window("tab")
                browser.get(web.origin + "/")
                until(lambda: first_byte(browser), "first bytes")
            until(lambda: len(web.desk_pids()) == args.tabs, f"{args.tabs} desks")
            time.sleep(5)  # each desk loads its boards
            desks = [psutil.Process(pid) for pid in web.desk_pids()]
            rss = [p.memory_full_info().rss / 2**20 for p in desks]
            uss = [p.memory_full_info().uss / 2**20 for p in desks]
            grown = (server.memory_info().rss - base_rss) / 2**20
        finally:
            browser.quit()
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores)")
    print(
        f"key -> desk switched (state file), {len(to_desk)} presses: "
        f"median {statistics.median(to_desk):.0f} ms, max {max(to_desk):.0f} ms"
    )
    if to_screen:
        print(
            f"key -> new screen's paint in the page, {len(to_screen)} presses: "
            f"median {statistics.median(to_screen):.0f} ms, max {max(to_screen):.0f} ms"
        )
    print(
        f"memory per desk session ({len(desks)} tabs): "
        f"RSS median {statistics.median(rss):.0f} MiB, "
        f"USS median {statistics.median(uss):.0f} MiB; "
        f"`oddstui web` itself grew {grown:.0f} MiB"
    )
    emit("oddstui web, a key to the desk and to the page", to_desk_ms=to_desk,
         to_page_ms=to_screen, uss_mib_per_tab=uss)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
