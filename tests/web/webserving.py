"""Start the real `oddstui web` as a subprocess, sign in as a browser does, and open desks.

`WebDesk` holds the process, its printed address and (after `sign_in`) the cookie; `desk_socket`
opens one tab's WebSocket with that cookie and the page's own Origin.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import psutil
from websockets.asyncio.client import ClientConnection, connect

from tests.serving import read_ready, terminate

READY = re.compile(r"oddstui web: open (http://\S+)")
COOKIE = "oddstui_web"


class WebDesk:
    """`oddstui web --port 0 <flags>` once it prints its address."""

    def __init__(self, folder: Path, *flags: str, env: dict[str, str] | None = None) -> None:
        home = folder / "home"
        home.mkdir(exist_ok=True)
        self.state_file = folder / "screen.json"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "oddstui", "web", "--port", "0", *flags],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={
                **os.environ,
                "PYTHONUNBUFFERED": "1",
                "ODDSTUI_HOME": str(home),
                "ODDSTUI_STATE_FILE": str(self.state_file),
                **(env or {}),
            },
        )
        self.url = read_ready(self.process, READY, 60.0, "oddstui web")
        parts = urlsplit(self.url)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.host = parts.netloc
        self.token = parts.query.removeprefix("token=")
        self.cookie: str | None = None
        self.first_visit: httpx.Response | None = None

    def close(self) -> None:
        terminate(self.process)  # type: ignore[arg-type]

    def __enter__(self) -> WebDesk:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def sign_in(self) -> httpx.Response:
        """The printed address's first visit, as a browser makes it (the redirect not followed)."""
        response = httpx.get(self.url)
        self.cookie = response.cookies.get(COOKIE)
        return response

    def get(self, path: str, cookie: str | None = None) -> httpx.Response:
        cookies = {COOKIE: cookie} if cookie else {}
        return httpx.get(self.origin + path, cookies=cookies)

    def status(self) -> dict[str, Any]:
        response = self.get("/status", self.cookie)
        response.raise_for_status()
        return response.json()

    def status_with(self, browser: Any) -> dict[str, Any]:
        """`/status` with the cookie a browser holds (HttpOnly: read through the driver)."""
        cookie = browser.get_cookie(COOKIE)
        response = self.get("/status", cookie["value"] if cookie else None)
        response.raise_for_status()
        return response.json()

    def desk_pids(self) -> list[int]:
        """The desk processes (`oddstui --base-url RELAY`) under this `oddstui web`."""
        children = psutil.Process(self.process.pid).children(recursive=True)
        pids = []
        for child in children:
            try:
                command = child.cmdline()
            except psutil.Error:
                continue
            if "--base-url" in command and "web" not in command:
                pids.append(child.pid)
        return pids

    def screen(self) -> dict[str, Any] | None:
        try:
            return json.loads(self.state_file.read_text())
        except (OSError, ValueError):
            return None


def desk_socket(web: WebDesk, cookie: str | None = None, origin: str | None = None) -> Any:
    """A tab's WebSocket (an async context manager); `cookie`/`origin` override the good ones."""
    headers = {"Origin": origin or web.origin}
    chosen = cookie if cookie is not None else web.cookie
    if chosen:
        headers["Cookie"] = f"{COOKIE}={chosen}"
    return connect(f"ws://{web.host}/ws?width=100&height=30", additional_headers=headers)


async def read_bytes(socket: ClientConnection, at_least: int, seconds: float = 30.0) -> int:
    """Read the desk's output until `at_least` bytes came; how many came."""
    count = 0

    async def reading() -> None:
        nonlocal count
        while count < at_least:
            frame = await socket.recv()
            if isinstance(frame, bytes):
                count += len(frame)

    await asyncio.wait_for(reading(), seconds)
    return count
