"""The app's JSON helpers: the base path, JSON bodies, and errors always as `{"error": ...}`
(Starlette's own 404 and 405 and, as a last line of defence, any unexpected exception: logged,
answered with a plain 500 body and no trace)."""

from __future__ import annotations

import json
import logging
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, WebSocketRoute
from starlette.routing import Route as StarletteRoute

BASE = "/v3"
log = logging.getLogger("oddstui.service")


def json_bytes(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json_bytes(data), status, headers, media_type="application/json")


def under_base(route: BaseRoute) -> BaseRoute:
    """Feed routes come with paths relative to /v3 (e.g. `/ws`); serve them under the base."""
    if isinstance(route, WebSocketRoute):
        return WebSocketRoute(BASE + route.path, route.endpoint, name=route.name)
    if isinstance(route, StarletteRoute):
        return StarletteRoute(BASE + route.path, route.endpoint, methods=list(route.methods or ()))
    raise TypeError(f"cannot mount feed route {route!r} under {BASE}")


async def http_error(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 500)
    if status == 404:
        message = f"not found: {request.url.path} (the interface lives under {BASE})"
    elif status == 405:
        message = f"method {request.method} not allowed on {request.url.path}"
    else:
        message = str(getattr(exc, "detail", "error"))
    headers = dict(getattr(exc, "headers", None) or {})
    return json_response({"error": message}, status, headers)


async def server_error(request: Request, exc: Exception) -> Response:
    log.error("unexpected error: %r", exc)
    return json_response({"error": "internal error"}, 500)


ERROR_HANDLERS = {HTTPException: http_error, Exception: server_error}
