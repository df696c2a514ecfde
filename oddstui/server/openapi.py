"""The OpenAPI 3.1 document, generated from the route table (`oddstui.server.routes.ROUTES`)."""

from __future__ import annotations

import re
from typing import Any

from oddstui.server.http import BASE
from oddstui.server.routes import ROUTES
from oddstui.server.routes.spec import JSON, Route
from oddstui.server.schemas import SCHEMAS
from oddstui.server.schemas_today import TODAY_SCHEMAS

_STATUS_TEXT = {
    400: "a parameter is missing or invalid; the message names it and the rule",
    401: "apiKey is missing or unknown",
    403: "the plan or add-on lacks access",
    404: "no such id",
    429: "over the hourly request limit; see Retry-After",
}
_FEED_PARAMS = (
    ("apiKey", "the account key (the account needs the feed add-on)", True),
    ("markets", "comma-separated market names, at most 20; required with the odds channel", False),
    ("channels", "any of odds, scores, status (default odds)", False),
    ("sport", "comma-separated sport slugs, at most 10", False),
    ("leagues", "comma-separated league slugs, at most 20; not with eventIds", False),
    ("eventIds", "comma-separated event ids, at most 50; not with leagues", False),
    ("status", "live or prematch", False),
    ("lastSeq", "resume point: replay odds messages after this seq", False),
)


def build_document() -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for route in ROUTES:
        paths.setdefault(BASE + route.path, {})[route.method.lower()] = _operation(route)
    paths[BASE + "/ws"] = {"get": _feed_operation()}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "oddstui v3 odds service",
            "version": "3.0.0",
            "description": "Sports odds comparison interface served by `oddstui serve`.",
        },
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {
            "schemas": {**SCHEMAS, **TODAY_SCHEMAS},
            "securitySchemes": {"apiKey": {"type": "apiKey", "in": "query", "name": "apiKey"}},
        },
    }


def documented_operations(document: dict[str, Any]) -> set[tuple[str, str]]:
    """(METHOD, path) of every operation in a document; used to check it against the app."""
    return {(method.upper(), path) for path, item in document["paths"].items() for method in item}


def _operation(route: Route) -> dict[str, Any]:
    parameters = [
        {
            "name": p.name,
            "in": "path",
            "required": True,
            "description": p.description,
            "schema": p.schema(),
        }
        for p in route.path_params
    ]
    parameters += [
        {
            "name": p.name,
            "in": "query",
            "required": p.required,
            "description": p.description,
            "schema": p.schema(),
        }
        for p in route.params
    ]
    ok: dict[str, Any] = {
        "description": "OK",
        "content": {route.media: {"schema": route.response}},
    }
    headers = {name: {"schema": {"type": "string"}} for name in route.response_headers}
    if route.keyed:
        headers.update(
            {
                name: {"schema": {"type": "string"}}
                for name in ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset")
            }
        )
    if headers:
        ok["headers"] = headers
    responses: dict[str, Any] = {"200": ok}
    for status in route.errors:
        responses[str(status)] = {
            "description": _STATUS_TEXT[status],
            "content": {JSON: {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
        if status == 429:
            responses["429"]["headers"] = {
                "Retry-After": {"description": "seconds", "schema": {"type": "integer"}}
            }
    operation: dict[str, Any] = {
        "operationId": _operation_id(route),
        "summary": route.summary,
        "tags": [route.tag] if route.tag else [],
        "parameters": parameters,
        "responses": responses,
    }
    if route.body is not None:
        operation["requestBody"] = {
            "required": True,
            "content": {JSON: {"schema": route.body}},
        }
    if route.keyed:
        operation["security"] = [{"apiKey": []}]
    return operation


def _feed_operation() -> dict[str, Any]:
    return {
        "operationId": "feed",
        "summary": "The WebSocket feed (upgrade); newline-separated JSON messages per frame",
        "tags": ["feed"],
        "security": [{"apiKey": []}],
        "parameters": [
            {
                "name": name,
                "in": "query",
                "required": required,
                "description": text,
                "schema": {"type": "string"},
            }
            for name, text, required in _FEED_PARAMS
        ],
        "responses": {
            "101": {"description": "switching to the WebSocket protocol"},
            "400": {
                "description": "bad filters; the seed's exact texts",
                "content": {JSON: {"schema": {"$ref": "#/components/schemas/Error"}}},
            },
            "401": {"description": _STATUS_TEXT[401]},
            "403": {"description": "the account lacks the feed add-on"},
        },
        "x-websocket": True,
    }


def _operation_id(route: Route) -> str:
    words = re.findall(r"[A-Za-z]+", route.path.replace("{id}", "by id"))
    name = words[0].lower() + "".join(w.capitalize() for w in words[1:])
    return f"{route.method.lower()}{name[0].upper()}{name[1:]}"
