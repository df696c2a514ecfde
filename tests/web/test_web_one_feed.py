"""Five tabs on one `oddstui web`: five desks on the in-process relay, one upstream feed."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from tests.api.fault_proxy import FaultProxy
from tests.api.feed_service import FEED_KEY, SERVICE_FLAGS, FeedService
from tests.waiting import eventually_async
from tests.web.webserving import WebDesk, desk_socket, read_bytes

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]  # five desks start: ~30 s
TABS = 5


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FeedService]:
    with FeedService(tmp_path_factory.mktemp("web-up"), *SERVICE_FLAGS) as running_service:
        yield running_service


async def test_five_tabs_cost_the_key_one_feed_connection(
    service: FeedService, tmp_path: Path
) -> None:
    async with FaultProxy(service.port) as proxy:
        web = await asyncio.to_thread(
            WebDesk,
            tmp_path,
            "--base-url",
            proxy.base_url,
            "--sessions",
            str(TABS),
            env={"ODDSTUI_API_KEY": FEED_KEY},
        )
        pids: list[int] = []
        try:
            await asyncio.to_thread(web.sign_in)
            async with contextlib.AsyncExitStack() as tabs:
                sockets = [await tabs.enter_async_context(desk_socket(web)) for _ in range(TABS)]
                await asyncio.gather(*(read_bytes(s, 2000) for s in sockets))
                status = await eventually_async(
                    lambda: asyncio.to_thread(web.status),
                    "every desk's feed on the relay",
                    lambda s: s["relay_feed_clients"] == TABS,
                )
                assert status["desks"] == TABS
                pids = web.desk_pids()
                assert len(pids) == TABS
                # Each desk holds its own relay key, never the trader's upstream key.
                keys = {psutil.Process(pid).environ().get("ODDSTUI_API_KEY") for pid in pids}
                assert len(keys) == TABS and FEED_KEY not in keys and None not in keys
        finally:
            await asyncio.to_thread(web.close)
        # Stopping `oddstui web` (SIGTERM) with five tabs open leaves no desk behind.
        assert pids
        _, alive = await asyncio.to_thread(psutil.wait_procs, still_running(pids), 5)
        assert alive == []
        requests = proxy.feed_requests()
        assert len(requests) == 1, requests  # the upstream saw one feed connection


def still_running(pids: list[int]) -> list[psutil.Process]:
    running = []
    for pid in pids:
        with contextlib.suppress(psutil.NoSuchProcess):
            running.append(psutil.Process(pid))
    return running
