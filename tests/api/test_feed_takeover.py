"""A takeover the way the public service does it (close 1000, no reason), with two real feed
clients on one key through a relay in front of the real service: the newer one keeps the feed
without a bounce and the older one stops for good."""

from __future__ import annotations

import pytest

from oddstui.api.feed_state import FeedState
from tests.api.close_code_proxy import PublicCloseProxy
from tests.api.feed_harness import (
    RecordingBook,
    Watcher,
    backoff_periods_pass,
    busy_events,
    feed_client,
    rest,
    running,
    streaming,
    wait_until,
)
from tests.api.feed_service import FEED_KEY, FeedService, service

__all__ = ["service"]  # the module's fixture


async def test_a_takeover_closed_with_1000_keeps_the_newer_client_live(
    service: FeedService,
) -> None:
    async with rest(service) as api, PublicCloseProxy(service.base_url, 1000) as relay:
        ids = await busy_events(api)
        old = feed_client(relay.base_url, FEED_KEY, RecordingBook(), api, ids)
        async with running(old):
            await streaming(old)
            newer_states = Watcher()
            new = feed_client(relay.base_url, FEED_KEY, RecordingBook(), api, ids, newer_states)
            async with running(new):
                await wait_until(lambda: old.state is FeedState.REPLACED, what="replaced")
                await streaming(new)
                await backoff_periods_pass()  # the older one would have come back by now
                assert relay.sent == [1000]  # the older one got the public service's close, once
                assert old.state is FeedState.REPLACED and new.state is FeedState.LIVE
                assert (old.counters.connects, new.counters.connects) == (1, 1)
                assert FeedState.OFFLINE not in newer_states.states
                assert "another client" in old.detail


@pytest.mark.parametrize("code", [1001, 1011])
async def test_other_closes_while_streaming_still_reconnect(
    service: FeedService, code: int
) -> None:
    # Guards the rule's edge: only 1000 (and 4000, and 1013 twice) mean "replaced".
    async with rest(service) as api, PublicCloseProxy(service.base_url, code) as relay:
        ids = await busy_events(api)
        old = feed_client(relay.base_url, FEED_KEY, RecordingBook(), api, ids)
        async with running(old):
            await streaming(old)
            new = feed_client(relay.base_url, FEED_KEY, RecordingBook(), api, ids)
            async with running(new):
                await wait_until(lambda: old.counters.connects >= 2, what="a reconnect")
                assert old.state is not FeedState.REPLACED
                new.stop()  # let the two stop knocking each other off
