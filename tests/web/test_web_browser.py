"""`oddstui web` in headless Chromium: the token, the desk's first bytes, a key round trip, a
screenshot, the cap's page, another site's page refused, and a closed tab's desk ended.

Marked `browser`: plain `pytest` deselects them; .ci/run installs Chromium and runs them after."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import psutil
import pytest
from PIL import Image, ImageChops
from selenium.webdriver.common.keys import Keys

from tests.web.browsing import chromium_found, first_byte, open_browser, press, until
from tests.web.webserving import WebDesk

pytestmark = [
    pytest.mark.browser,
    pytest.mark.timeout(180),
    pytest.mark.skipif(not chromium_found(), reason="needs chromium and chromium-driver"),
]
SCREENSHOT = Path(__file__).resolve().parents[2] / "screenshots" / "web.png"
#: Before the page's scripts: note what the page puts on the clipboard (and still put it there).
CLIPBOARD_WATCH = """
window.__copied = [];
if (navigator.clipboard) {
  const write = navigator.clipboard.writeText.bind(navigator.clipboard);
  navigator.clipboard.writeText = (text) => {
    window.__copied.push(text);
    return write(text).catch(() => undefined);
  };
}
"""


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDesk]:
    with WebDesk(tmp_path_factory.mktemp("web"), "--demo", "--sessions", "1") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = open_browser()
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CLIPBOARD_WATCH})
        yield driver
    finally:
        driver.quit()


def test_the_desk_opens_with_the_token_and_a_key_switches_screen(
    web: WebDesk, browser: Any
) -> None:
    browser.get(web.url)
    assert browser.current_url == web.origin + "/"  # the token swapped for the cookie
    cookie = browser.get_cookie("oddstui_web")
    assert cookie is not None and cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    until(lambda: first_byte(browser), "first bytes of the desk")
    # Every request the page made went to our server (script, stylesheet, fonts, socket).
    fetched = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
    )
    assert any(name.endswith(".ttf") for name in fetched), fetched  # the shipped font
    assert all(name.startswith((web.origin, web.origin.replace("http", "ws"))) for name in fetched)
    until(lambda: (web.screen() or {}).get("mode") == "live", "the desk on its Live screen")
    until(lambda: len(web.desk_pids()) == 1, "one desk process")
    SCREENSHOT.parent.mkdir(exist_ok=True)
    # The page follows each switch: a steady, painted page (not blank; while a board loads most
    # of it is unpainted) that differs from the last screen's.
    live = until(lambda: steady(browser), "the Live board drawn", step=0.2)
    press(browser, "1")
    state = until(lambda: (web.screen() or {}).get("mode") == "sports" and web.screen(), "Sports")
    assert state["screen"] == "SportsScreen"
    sports = until(lambda: shows_new(browser, live), "the Sports list drawn", step=0.2)
    press(browser, "2")
    until(lambda: (web.screen() or {}).get("mode") == "live", "back to Live")
    until(lambda: web.status_with(browser)["relay_feed_clients"] == 1, "the desk's feed")
    until(lambda: shows_new(browser, sports), "the Live board drawn again", step=0.2)
    # The desk's columns fit the page: none cut off at the right edge (sized in the page's font).
    drawn, page = browser.execute_script(
        "return [document.querySelector('.xterm-screen').getBoundingClientRect().width,"
        " document.getElementById('terminal').getBoundingClientRect().width]"
    )
    assert 0.9 * page < drawn <= page, (drawn, page)


def painted(browser: Any) -> Image.Image | None:
    """The page's screenshot (saved as screenshots/web.png) once the desk covers the page."""
    browser.save_screenshot(str(SCREENSHOT))
    with Image.open(SCREENSHOT) as image:
        pixels = image.convert("RGB")
    colours = pixels.getcolors(maxcolors=1 << 20) or []
    black = sum(count for count, colour in colours if colour == (0, 0, 0))
    return pixels if len(colours) > 20 and black < 0.05 * pixels.width * pixels.height else None


def steady(browser: Any) -> Image.Image | None:
    """A painted screenshot that half a second later is still about the same (the page has
    caught up with the desk's paint; a clock or a price moving changes a few cells)."""
    before = painted(browser)
    time.sleep(0.5)
    after = painted(browser)
    if before is None or after is None or changed(before, after) > 0.02:
        return None
    return after


def shows_new(browser: Any, last: Image.Image) -> Image.Image | None:
    now = steady(browser)
    return now if now is not None and changed(last, now) > 0.06 else None


def changed(before: Image.Image, after: Image.Image) -> float:
    """The share of pixels that differ between two screenshots (Sports against Live: ~0.14;
    the same board half a second apart: ~0.001)."""
    difference = ImageChops.difference(before, after).convert("L")
    histogram = difference.histogram()
    return 1 - histogram[0] / (before.width * before.height)


def test_copying_the_stakes_reaches_the_browsers_clipboard(web: WebDesk, browser: Any) -> None:
    press(browser, "4")
    until(lambda: (web.screen() or {}).get("mode") == "arbitrage", "the Arbitrage board")

    # enter opens the highlighted arbitrage's ticket once the board has rows; enter again on the
    # ticket would close it, so each press waits a while for the ticket before the next one.
    deadline = time.monotonic() + 60
    while True:
        press(browser, Keys.ENTER)
        try:
            until(lambda: (web.screen() or {}).get("screen") == "StakeTicketModal", "ticket", 5)
            break
        except AssertionError:
            if time.monotonic() > deadline:
                raise
    press(browser, "c")  # the desk writes OSC 52; the page's terminal hands it to the clipboard
    copied = until(lambda: browser.execute_script("return window.__copied"), "a copy", 10.0)
    assert "total" in copied[-1] and "guaranteed" in copied[-1] and "@" in copied[-1]


def test_a_tab_past_the_cap_gets_the_page_that_says_so(web: WebDesk, browser: Any) -> None:
    desk_tab = browser.current_window_handle
    browser.switch_to.new_window("tab")
    try:
        browser.get(web.origin + "/")
        text = browser.find_element("tag name", "body").text
        assert "at most 1 desks" in text
        assert len(web.desk_pids()) == 1
    finally:
        browser.close()
        browser.switch_to.window(desk_tab)


def test_a_wrong_token_gets_no_desk(web: WebDesk, browser: Any) -> None:
    desk_tab = browser.current_window_handle
    browser.switch_to.new_window("tab")
    try:
        browser.get(web.origin + "/?token=not-the-token")
        assert "not signed in" in browser.title
    finally:
        browser.close()
        browser.switch_to.window(desk_tab)


class _Attacker(BaseHTTPRequestHandler):
    """A page of another origin (another port of this host: the same site, so the browser sends
    the SameSite=Strict cookie; only the Origin check stands in the way)."""

    target = ""

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        page = f"""<!DOCTYPE html><title>waiting</title><script>
const socket = new WebSocket("{self.target}");
socket.onopen = () => {{ document.title = "opened"; }};
socket.onclose = () => {{ if (document.title !== "opened") document.title = "refused"; }};
</script>"""
        body = page.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_another_origins_page_cannot_open_a_desk(web: WebDesk, browser: Any) -> None:
    _Attacker.target = f"ws://{web.host}/ws"
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Attacker)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    desk_tab = browser.current_window_handle
    browser.switch_to.new_window("tab")
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
        until(lambda: browser.title != "waiting", "the socket's fate")
        assert browser.title == "refused"
        assert len(web.desk_pids()) == 1  # only the first tab's desk
    finally:
        browser.close()
        browser.switch_to.window(desk_tab)
        server.shutdown()


def test_closing_the_tab_ends_its_desk_within_five_seconds(web: WebDesk, browser: Any) -> None:
    [pid] = web.desk_pids()
    desk_tab = browser.current_window_handle
    browser.switch_to.new_window("tab")  # the browser stays open; only the desk's tab closes
    other = browser.current_window_handle
    browser.switch_to.window(desk_tab)
    browser.close()
    browser.switch_to.window(other)
    gone, alive = psutil.wait_procs([psutil.Process(pid)], timeout=5.0)
    assert alive == [] and [p.pid for p in gone] == [pid]
    until(lambda: web.desk_pids() == [], "no desk left", 5.0)
