"""The desks behind the browser tabs: one process each, with its own relay key, capped.

A desk is `oddstui --base-url RELAY` under Textual's web driver, run by textual-serve's
`AppService` (it speaks the driver's packet protocol on the process's pipes). A closed tab takes
everything with it: the process (asked to quit, killed if it has not within `STOP_GRACE`), and
the relay key, so nothing can connect on it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import shlex
import sys
from collections.abc import Awaitable, Callable

from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from oddstui.config import KEY_ENV, WEB_ENV
from oddstui.server.accounts import Account, Accounts

STOP_GRACE = 3.0  # seconds a desk has to quit after its tab closed; then it is killed


class DeskProcess(AppService):
    """textual-serve's app service with the desk's environment: its relay key, not ours."""

    def __init__(self, command: str, env: dict[str, str], **kwargs: object) -> None:
        super().__init__(command, **kwargs)  # type: ignore[arg-type]
        self._extra_env = env

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width, height)
        environment.update(self._extra_env)
        return environment

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def end(self) -> None:
        """Ask the desk to quit; kill it if it has not gone within STOP_GRACE."""
        process = self._process
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.stop(), STOP_GRACE)
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(process.wait(), STOP_GRACE)
        if self._task is not None:
            self._task.cancel()


class Desks:
    """The open desks, at most `cap`, each on its own key of the relay's `accounts`."""

    def __init__(self, relay_url: str, accounts: Accounts, cap: int) -> None:
        self.relay_url = relay_url
        self.accounts = accounts
        self.cap = cap
        self.open: dict[str, DeskProcess] = {}  # by relay key
        self._downloads = DownloadManager()

    @property
    def full(self) -> bool:
        return len(self.open) >= self.cap

    def command(self) -> str:
        return shlex.join([sys.executable, "-m", "oddstui", "--base-url", self.relay_url])

    async def start(
        self,
        width: int,
        height: int,
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
    ) -> tuple[str, DeskProcess]:
        key = "web-" + secrets.token_urlsafe(18)
        self.accounts.add(Account(key=key, feed=True))
        desk = DeskProcess(
            self.command(),
            {KEY_ENV: key, WEB_ENV: "1"},
            write_bytes=write_bytes,
            write_str=write_str,
            close=close,
            download_manager=self._downloads,
        )
        self.open[key] = desk
        try:
            await desk.start(width, height)
        except BaseException:
            await self.end(key)
            raise
        return key, desk

    async def end(self, key: str) -> None:
        desk = self.open.pop(key, None)
        self.accounts.remove(key)
        if desk is not None:
            await desk.end()

    async def end_all(self) -> None:
        await asyncio.gather(*(self.end(key) for key in list(self.open)))
