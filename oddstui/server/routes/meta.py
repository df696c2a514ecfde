"""The OpenAPI document's own route."""

from __future__ import annotations

from oddstui.server.routes.spec import Route

ROUTES = (
    Route(
        "GET",
        "/openapi.json",
        "This OpenAPI 3.1 document",
        {"type": "object"},
        keyed=False,
        errors=(),
        tag="meta",
    ),
)
