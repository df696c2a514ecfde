"""The OpenAPI document of this interface, generated once from the route table."""

from __future__ import annotations

from functools import cache
from typing import Any

from oddstui.server.openapi import build_document
from oddstui.service.routes.call import Call, Handler


@cache
def _document() -> dict[str, Any]:
    return build_document()


def openapi(call: Call) -> dict[str, Any]:
    return _document()


HANDLERS: dict[str, Handler] = {
    "/openapi.json": openapi,
}
