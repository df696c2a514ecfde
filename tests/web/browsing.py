"""Headless Chromium from the system's packages (/usr/bin/chromium, /usr/bin/chromedriver),
driven by Selenium; nothing is downloaded. Shared by the browser tests and benchmarks/web.py."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def chromium_found() -> bool:
    return bool(shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER))


def open_browser(width: int = 1200, height: int = 800) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        f"--window-size={width},{height}",
        "--no-first-run",
        "--disable-background-networking",
    ):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def first_byte(driver: Any) -> bool:
    """The page's terminal drew the desk's first bytes (textual.js marks the body)."""
    return "-first-byte" in (driver.find_element("tag name", "body").get_attribute("class") or "")


def press(driver: Any, keys: str) -> None:
    """Keys to the terminal, as a person types them into the page (xterm.js reads them from its
    hidden textarea, which has the focus once the terminal is clicked)."""
    driver.find_element("css selector", ".xterm-helper-textarea").send_keys(keys)


def until(fetch: Callable[[], T], what: str, seconds: float = 30.0, step: float = 0.05) -> T:
    deadline = time.monotonic() + seconds
    while True:
        answer = fetch()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} within {seconds:g} s (last: {answer!r:.200})")
        time.sleep(step)
