"""The Starlette app: every `Route` of the table wrapped with auth, rate limit and validation.

Errors always leave as `{"error": ...}`: the route's own `ApiError`s, Starlette's 404 and 405,
and, as a last line of defence, any unexpected exception (logged, answered with a plain 500
body and no trace).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, WebSocketRoute
from starlette.routing import Route as StarletteRoute

from oddstui.service.context import ServiceContext
from oddstui.service.errors import ApiError, TooManyRequests, Unauthorized
from oddstui.service.params import Param, parse_query
from oddstui.service.routes import ROUTES
from oddstui.service.routes.spec import Call, Route

BASE = "/v3"
log = logging.getLogger("oddstui.service")


def json_bytes(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json_bytes(data), status, headers, media_type="application/json")


def create_app(svc: ServiceContext) -> Starlette:
    routes: list[BaseRoute] = [
        StarletteRoute(BASE + route.path, _endpoint(route, svc), methods=[route.method])
        for route in ROUTES
    ]
    if svc.feed is not None:
        routes.extend(_under_base(feed_route) for feed_route in svc.feed.routes())
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )
    # `/v3/sports/` is not a path of the interface: 404 {error}, not a redirect.
    app.router.redirect_slashes = False
    return app


def _under_base(route: Any) -> BaseRoute:
    """Feed routes come with paths relative to /v3 (e.g. `/ws`); serve them under the base."""
    if isinstance(route, WebSocketRoute):
        return WebSocketRoute(BASE + route.path, route.endpoint, name=route.name)
    if isinstance(route, StarletteRoute):
        return StarletteRoute(BASE + route.path, route.endpoint, methods=list(route.methods or ()))
    raise TypeError(f"cannot mount feed route {route!r} under {BASE}")


def _endpoint(route: Route, svc: ServiceContext):
    async def endpoint(request: Request) -> Response:
        headers: dict[str, str] = {}
        try:
            account = None
            if route.keyed:
                account = _authenticate(svc, request)
                verdict = svc.limiter.hit(account.key, account.requests_per_hour)
                headers.update(verdict.headers())
                if not verdict.allowed:
                    raise TooManyRequests(
                        f"apiKey: hourly limit of {verdict.limit} requests reached; "
                        f"retry in {verdict.retry_after} s"
                    )
            query = parse_query(route.params, request.query_params.multi_items())
            path = _path_values(route.path_params, request.path_params)
            call = Call(svc, account, query, path, headers)
            result = route.handler(call)
            if isinstance(result, Response):
                result.headers.update(headers)
                return result
            if isinstance(result, bytes):  # JSON the handler encoded itself (cached items)
                return Response(result, 200, headers, media_type="application/json")
            return json_response(result, 200, headers)
        except ApiError as error:
            return json_response(error.body(), error.status, headers)
        except Exception:
            log.exception("unexpected error on %s %s", route.method, route.path)
            return json_response({"error": "internal error"}, 500, headers)

    return endpoint


def _authenticate(svc: ServiceContext, request: Request) -> Any:
    keys = request.query_params.getlist("apiKey")
    if not keys or not keys[0]:
        raise Unauthorized("apiKey: required; pass your key as the apiKey query parameter")
    if len(keys) > 1:
        raise Unauthorized("apiKey: must be given once")
    account = svc.accounts.get(keys[0])
    if account is None:
        raise Unauthorized("apiKey: unknown key")
    return account


def _path_values(params: tuple[Param, ...], raw: dict[str, Any]) -> dict[str, Any]:
    if not params:
        return {}
    return parse_query(params, [(name, str(value)) for name, value in raw.items()])


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
