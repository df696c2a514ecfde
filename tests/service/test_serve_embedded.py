"""The embedded service (the TUI's default without a key): starts on loopback, stops cleanly."""

from __future__ import annotations

import threading

import httpx

from oddstui.service.assembly import Options
from oddstui.service.embedded import start_embedded


def test_embedded_service_serves_the_demo_account_and_stops() -> None:
    before = set(threading.enumerate())
    service = start_embedded(Options(bookmakers=40))
    try:
        assert service.base_url.startswith("http://127.0.0.1:")
        assert service.base_url.endswith("/v3")
        assert service.api_key == "demo"
        assert "demo" not in repr(service)
        sports = httpx.get(service.base_url + "/sports", timeout=10)
        assert sports.status_code == 200 and len(sports.json()) == 34
        selected = httpx.get(
            service.base_url + "/bookmakers/selected",
            params={"apiKey": service.api_key},
            timeout=10,
        )
        assert selected.status_code == 200 and selected.json()["count"] > 0
    finally:
        service.stop()
    assert not (set(threading.enumerate()) - before), "the service thread is gone"
    try:
        httpx.get(service.base_url + "/sports", timeout=2)
        refused = False
    except httpx.ConnectError:
        refused = True
    assert refused, "the port is closed after stop()"


def test_two_embedded_services_get_different_ports() -> None:
    first = start_embedded(Options(bookmakers=30))
    second = start_embedded(Options(bookmakers=30, seed=2))
    try:
        assert first.base_url != second.base_url
        for service in (first, second):
            assert httpx.get(service.base_url + "/sports", timeout=10).status_code == 200
    finally:
        first.stop()
        second.stop()
