"""Every text filter refuses control characters with a 400 naming the parameter, on the service,
the relay and a replay alike; the relay refuses market names it does not carry as the service
refuses names it never quotes (issue 33, part 3)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.api.feed_service import FEED_KEY, SERVICE_FLAGS, FeedService
from tests.recording.test_cli_input import write_recording
from tests.relay.relaying import DESK_KEYS, launch_relay
from tests.serving import launch_replay, terminate

pytestmark = pytest.mark.timeout(120)
NUL, ESC = "foot\x00ball", "football\x1b[31m"


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[str, str]]]:
    """The service and a relay in front of it: name -> (base URL, a key it takes)."""
    folder = tmp_path_factory.mktemp("text-filters")
    with FeedService(folder, *SERVICE_FLAGS) as service:
        process, relay = launch_relay(service.base_url, FEED_KEY, folder)
        write_recording(folder / "rec")
        replaying, replay = launch_replay(folder / "rec")
        try:
            yield {
                "service": (service.base_url, FEED_KEY),
                "relay": (relay, DESK_KEYS[0]),
                "replay": (replay, "demo"),
            }
        finally:
            terminate(replaying)
            terminate(process)


async def refused_handshake(base: str, key: str, **params: str) -> tuple[int, Any]:
    query = urlencode({"apiKey": key, **params})
    url = base.replace("http://", "ws://", 1) + "/ws?" + query
    try:
        async with connect(url, open_timeout=30, proxy=None):
            pass
    except InvalidStatus as refused:
        return refused.response.status_code, json.loads(refused.response.body or b"null")
    raise AssertionError("the handshake was accepted")


@pytest.mark.parametrize("where", ["service", "relay", "replay"])
@pytest.mark.parametrize(
    "params",
    [
        {"sport": NUL, "markets": "ML"},
        {"leagues": ESC, "markets": "ML"},
        {"markets": "ML,Tot\x00als"},
        {"markets": "ML", "status": "live\x07"},
    ],
    ids=["sport", "leagues", "markets", "status"],
)
async def test_a_feed_filter_with_a_control_character_gets_400_naming_it(
    sources: dict[str, tuple[str, str]], where: str, params: dict[str, str]
) -> None:
    base, key = sources[where]
    bad = next(name for name, value in params.items() if not value.isprintable())
    status, body = await refused_handshake(base, key, **params)
    assert (status, body) == (400, {"error": f"{bad}: must not contain control characters"})


@pytest.mark.parametrize("where", ["service", "relay", "replay"])
@pytest.mark.parametrize(
    ("path", "params", "bad"),
    [
        ("/events", {"sport": NUL}, "sport"),
        ("/events", {"sport": "football", "league": ESC}, "league"),
        ("/odds", {"eventId": "1", "bookmakers": "Bet365,Pinn\x00acle"}, "bookmakers"),
        ("/events/search", {"query": "Arse\x00nal"}, "query"),
    ],
    ids=["sport", "league", "bookmakers", "query"],
)
async def test_a_rest_filter_with_a_control_character_gets_400_naming_it(
    sources: dict[str, tuple[str, str]], where: str, path: str, params: dict[str, str], bad: str
) -> None:
    base, key = sources[where]
    async with httpx.AsyncClient(timeout=30) as http:
        answer = await http.get(base + path, params={"apiKey": key, **params})
    assert answer.status_code == 400
    assert answer.json() == {"error": f"{bad}: must not contain control characters"}


@pytest.mark.parametrize("where", ["service", "relay"])
async def test_an_unknown_market_gets_400_on_the_relay_as_on_the_service(
    sources: dict[str, tuple[str, str]], where: str
) -> None:
    base, key = sources[where]
    status, body = await refused_handshake(base, key, markets="ML,Zorbing Handicap")
    assert status == 400
    assert body == {
        "error": "Unknown market: Zorbing Handicap. This service quotes no market of that name"
    }
