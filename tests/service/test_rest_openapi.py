"""The OpenAPI 3.1 document: served at /v3/openapi.json and in step with the served routes."""

from __future__ import annotations

import re

import httpx
from starlette.routing import Route, WebSocketRoute

from oddstui.server.accounts import demo_accounts
from oddstui.server.openapi import documented_operations
from oddstui.service.app import create_app
from oddstui.service.assembly import Options, build_service
from tests.service.conftest import Service
from tests.service.helpers import ok


def served_operations() -> set[tuple[str, str]]:
    app = create_app(build_service(Options(bookmakers=30), demo_accounts()))
    served = set()
    for route in app.routes:
        if isinstance(route, WebSocketRoute):
            served.add(("GET", route.path))
        elif isinstance(route, Route):
            served |= {(method, route.path) for method in route.methods or () if method != "HEAD"}
    return served


def test_document_is_openapi_31_and_needs_no_key(http: httpx.Client) -> None:
    document = ok(http.get("/openapi.json"))
    assert document["openapi"].startswith("3.1")
    assert document["info"]["version"] == "3.0.0"
    assert "apiKey" in document["components"]["securitySchemes"]


def test_every_served_route_is_documented_and_vice_versa(http: httpx.Client) -> None:
    documented = documented_operations(ok(http.get("/openapi.json")))
    served = served_operations()
    assert served - documented == set(), "served but not documented"
    assert documented - served - {("GET", "/v3/ws")} == set(), "documented but not served"


def test_every_documented_operation_answers_on_the_wire(
    http: httpx.Client, service: Service
) -> None:
    document = ok(http.get("/openapi.json"))
    for path, item in document["paths"].items():
        if item.get("get", {}).get("x-websocket"):
            continue
        concrete = re.sub(r"\{id\}", "1", path).removeprefix("/v3")
        for method, operation in item.items():
            response = http.request(method.upper(), concrete, params={"apiKey": service.key})
            assert response.status_code not in (405, 500), (method, path, response.text)
            if response.status_code == 404:
                assert "{id}" in path, (path, response.text)  # an unknown id, not a path
            declared = {int(code) for code in operation["responses"]}
            assert response.status_code in declared, (method, path, response.status_code)


def test_parameters_documented_with_their_limits(http: httpx.Client) -> None:
    paths = ok(http.get("/openapi.json"))["paths"]
    limit = {p["name"]: p for p in paths["/v3/arbitrage-bets"]["get"]["parameters"]}["limit"]
    assert limit["schema"]["maximum"] == 500 and limit["schema"]["default"] == 50
    events = {p["name"]: p for p in paths["/v3/events"]["get"]["parameters"]}
    assert events["limit"]["schema"]["maximum"] == 5000
    odds = {p["name"]: p for p in paths["/v3/odds"]["get"]["parameters"]}
    assert odds["bookmakers"]["required"] is True
