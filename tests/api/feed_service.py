"""The real built-in service as a subprocess for the feed tests, restartable on the same port."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.serving import launch, terminate

FEED_KEY = "k-feed-9d2c61e0a7"
OTHER_FEED_KEY = "k-feed-other-31b7"
NO_FEED_KEY = "k-nofeed-5a0e"
LEAN_KEY = "k-lean-feed-c4"  # feed on, 2 REST requests an hour: the resync budget runs out
# Every account gets the service's default selection of about 12 bookmakers.
ACCOUNTS = f"""
[[account]]
key = "{FEED_KEY}"
plan = "paid"
feed = true

[[account]]
key = "{OTHER_FEED_KEY}"
plan = "paid"
feed = true

[[account]]
key = "{NO_FEED_KEY}"
plan = "paid"
feed = false

[[account]]
key = "{LEAN_KEY}"
plan = "paid"
feed = true
requests_per_hour = 2
"""


class FeedService:
    """`oddstui serve` with the accounts above; `restart()` brings it back on the same port."""

    def __init__(self, folder: Path, *flags: str) -> None:
        self.accounts = folder / "accounts.toml"
        self.accounts.write_text(ACCOUNTS)
        self.flags = flags
        self.port = 0
        self.base_url = ""
        self.process: subprocess.Popen[str] | None = None

    def start(self, timeout: float = 30.0) -> FeedService:
        flags = ("--port", str(self.port), "--accounts", str(self.accounts), *self.flags)
        self.process, self.base_url = launch(*flags, timeout=timeout)
        self.port = urlsplit(self.base_url).port or 0
        return self

    def stop(self) -> None:
        if self.process is not None:
            terminate(self.process)

    def restart(self) -> None:
        self.stop()
        for _ in range(50):  # the port may take a moment to be free again
            try:
                self.start()
                return
            except RuntimeError:
                time.sleep(0.1)
        raise RuntimeError("the service did not come back on its port")

    def __enter__(self) -> FeedService:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


# ~180 odds messages a second reach a client: a busy stream that a loaded 2-core box sustains.
SERVICE_FLAGS = ("--seed", "5", "--speed", "30", "--updates-per-second", "300")


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FeedService]:
    """One service for the tests that leave it as they found it (one xdist worker each)."""
    with FeedService(tmp_path_factory.mktemp("feed"), *SERVICE_FLAGS) as running_service:
        yield running_service


@pytest.fixture(scope="module")
def short_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FeedService]:
    """A service with a one-second replay window, for resync_required and the restart."""
    folder = tmp_path_factory.mktemp("feed-short")
    with FeedService(folder, *SERVICE_FLAGS, "--replay-window", "1") as running_service:
        yield running_service
