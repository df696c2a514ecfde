"""One route of the table served with the interface's checks: the key, the hourly limit and
the query, then the source's answer; every failure leaves as `{"error": ...}`."""

from __future__ import annotations

import inspect
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from oddstui.server.accounts import PAID, Account, Accounts
from oddstui.server.errors import ApiError, BadRequest, Forbidden, TooManyRequests, Unauthorized
from oddstui.server.http import json_response
from oddstui.server.params import Param, parse_query
from oddstui.server.ratelimit import RateLimiter
from oddstui.server.routes.spec import Route

log = logging.getLogger("oddstui.service")


@dataclass(slots=True)
class Checked:
    """A request that passed the checks: its account, validated query and path values."""

    account: Account | None
    q: dict[str, Any]
    path: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)  # extra response headers
    body: Any = None  # a POST route's JSON body


MAX_BODY = 256 * 1024  # bytes of a JSON body; 50 selections fit many times over
Answer = Callable[[Checked], Any]
"""The source's answer to a checked request: a Response, JSON bytes, or data to encode."""


def checked_endpoint(
    route: Route, accounts: Accounts, limiter: RateLimiter, answer: Answer
) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        headers: dict[str, str] = {}
        try:
            account = None
            if route.keyed:
                account = _authenticate(accounts, request)
                verdict = limiter.hit(account.key, account.requests_per_hour, account.hour_seconds)
                headers.update(verdict.headers())
                if not verdict.allowed:
                    raise TooManyRequests(
                        f"apiKey: hourly limit of {verdict.limit} requests reached; "
                        f"retry in {verdict.retry_after} s"
                    )
                check_plan(route, account)
            query = parse_query(route.params, request.query_params.multi_items())
            path = _path_values(route.path_params, request.path_params)
            body = await read_json_body(request) if route.body is not None else None
            result = answer(Checked(account, query, path, headers, body))
            if inspect.isawaitable(result):
                result = await result
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


def check_plan(route: Route, account: Account | None) -> None:
    """A paid-only route refuses a free plan's key with 403, as the public service does."""
    if route.paid_only and (account is None or account.plan != PAID):
        raise Forbidden(f"apiKey: {route.path} is available on paid plans only")


async def read_json_body(request: Request) -> Any:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BadRequest(f"body: at most {MAX_BODY} bytes")
    if not raw.strip():
        raise BadRequest("body: required, a JSON object")
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("body: not valid JSON") from None


def _authenticate(accounts: Accounts, request: Request) -> Account:
    keys = request.query_params.getlist("apiKey")
    if not keys or not keys[0]:
        raise Unauthorized("apiKey: required; pass your key as the apiKey query parameter")
    if len(keys) > 1:
        raise Unauthorized("apiKey: must be given once")
    account = accounts.get(keys[0])
    if account is None:
        raise Unauthorized("apiKey: unknown key")
    return account


def _path_values(params: tuple[Param, ...], raw: dict[str, Any]) -> dict[str, Any]:
    if not params:
        return {}
    return parse_query(params, [(name, str(value)) for name, value in raw.items()])
