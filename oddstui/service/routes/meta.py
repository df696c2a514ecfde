"""The OpenAPI document of this interface, generated from the route table."""

from __future__ import annotations

from typing import Any

from oddstui.service.routes.spec import Call, Route

_document: dict[str, Any] | None = None


def openapi(call: Call) -> dict[str, Any]:
    global _document
    if _document is None:
        build = call.svc.openapi
        if build is None:
            raise RuntimeError("the service was assembled without its OpenAPI document")
        _document = build()
    return _document


ROUTES = (
    Route(
        "GET",
        "/openapi.json",
        openapi,
        "This OpenAPI 3.1 document",
        {"type": "object"},
        keyed=False,
        errors=(),
        tag="meta",
    ),
)
