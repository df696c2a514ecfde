"""The built-in service as the desk's child process: ready line, requests, stop, and no service
left behind when the desk goes (its standard input closes)."""

from __future__ import annotations

import httpx
import pytest

from oddstui.server.accounts import DEMO_KEY
from oddstui.service.child import ChildFailed, start_child


def test_a_child_service_answers_and_stops_cleanly() -> None:
    service = start_child(seed=3, speed=2.0)
    try:
        url = service.wait_ready()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/v3")
        response = httpx.get(url + "/sports", params={"apiKey": service.api_key}, timeout=30)
        assert response.status_code == 200 and response.json()
        assert service.api_key == DEMO_KEY
    finally:
        service.stop()
    assert service.process.returncode == 0
    assert not service.log.exists()


def test_the_service_stops_when_the_desk_that_started_it_goes() -> None:
    service = start_child()
    try:
        service.wait_ready()
        assert service.process.stdin is not None
        service.process.stdin.close()  # what the kernel does when the desk dies
        assert service.process.wait(30) == 0
    finally:
        service.stop()


def test_a_service_that_cannot_start_says_why_in_one_line() -> None:
    service = start_child(speed=-1.0)
    with pytest.raises(ChildFailed) as failed:
        service.wait_ready()
    assert "--speed" in str(failed.value) and "\n" not in str(failed.value)
    assert service.process.poll() is not None
