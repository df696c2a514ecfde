"""The world service answers exactly the server core's route table: one handler per path."""

from __future__ import annotations

import pytest

import oddstui.service.app as service_app
from oddstui.server.accounts import demo_accounts
from oddstui.server.ratelimit import RateLimiter
from oddstui.server.routes import ROUTES
from oddstui.service.context import ServiceContext
from oddstui.service.routes import HANDLERS


def test_every_path_of_the_table_has_one_handler_and_no_handler_is_left_over() -> None:
    paths = [route.path for route in ROUTES]
    assert len(paths) >= 20 and len(set(paths)) == len(paths)
    assert set(HANDLERS) == set(paths)


def test_an_app_without_a_handler_for_a_path_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = dict(HANDLERS)
    del missing["/odds/movements"]
    monkeypatch.setattr(service_app, "HANDLERS", missing)
    # No world: the check comes before any route could be answered.
    svc = ServiceContext(world=None, accounts=demo_accounts(), limiter=RateLimiter(), indexes=None)
    with pytest.raises(LookupError, match="/odds/movements"):
        service_app.create_app(svc)
