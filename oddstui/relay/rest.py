"""The relay's REST side: every read route of the interface, answered from upstream through a
short cache, under the relay's own downstream keys and hourly limits.

The key's selection is local: GET /bookmakers/selected and PUT /bookmakers/selected/select and
/clear work on the downstream account, within the bookmakers the relay's upstream feed carries.
An answer with `includeSeq` hands over to the relay's feed: its seq header is never ahead of what
the relay has relayed, so a client that resumes from it is never told its `lastSeq` is in the
future.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import httpx
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from oddstui.api.redact import plain, redact
from oddstui.api.rest_session import tls_for
from oddstui.relay.cache import DEFAULT_TTL, TTL, Answer, ResponseCache
from oddstui.relay.relay import Relay
from oddstui.server.accounts import Account, Accounts
from oddstui.server.endpoint import check_plan, read_json_body
from oddstui.server.errors import ApiError, BadRequest, TooManyRequests, Unauthorized
from oddstui.server.http import BASE, json_response
from oddstui.server.params import parse_query
from oddstui.server.ratelimit import RateLimiter
from oddstui.server.routes import ROUTES
from oddstui.server.routes.spec import Route as Spec

try:
    from orjson import loads
except ImportError:  # pragma: no cover - depends on the environment
    from json import loads  # type: ignore[assignment]

log = logging.getLogger("oddstui.relay")

SEQ_HEADERS = ("X-Service-Seq", "X-OddsAPI-Seq")
KEPT_HEADERS = ("content-type", "cache-control", "retry-after", *(h.lower() for h in SEQ_HEADERS))
HANDOFF_WAIT = 0.5  # how long an includeSeq answer waits for the relay's feed to catch up
SELECTED, SELECT = "/bookmakers/selected", "/bookmakers/selected/select"
CLEAR = "/bookmakers/selected/clear"
LOCAL = (SELECTED, SELECT, CLEAR)
NO_PLACES = frozenset({"/participants/{id}/logo", "/openapi.json", "/odds/movements"})


class RelayRest:
    def __init__(
        self,
        relay: Relay,
        accounts: Accounts,
        upstream_base: str,
        upstream_key: str,
        selection: list[str],
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = 10.0,
    ) -> None:
        self._relay = relay
        self._accounts = accounts
        self._key = upstream_key
        self.selection = list(selection)  # the bookmakers the upstream feed carries
        self.cache = ResponseCache()
        self.limiter = RateLimiter()
        self.upstream_requests = 0
        self._http = httpx.AsyncClient(
            base_url=upstream_base.rstrip("/") + "/",
            transport=transport,
            timeout=timeout,
            headers={"User-Agent": "oddstui-relay"},
            follow_redirects=False,
            verify=tls_for(upstream_base),
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    def routes(self) -> list[BaseRoute]:
        return [
            Route(BASE + spec.path, self._endpoint(spec), methods=[spec.method]) for spec in ROUTES
        ]

    def _endpoint(self, spec: Spec):
        async def endpoint(request: Request) -> Response:
            headers: dict[str, str] = {}
            try:
                account = self._admit(spec, request, headers)
                # The service's own parameter rules, here: a bad query costs no upstream request
                # and gets the same 400 from a public upstream that checks less.
                parse_query(spec.params, request.query_params.multi_items())
                if spec.path in LOCAL and account is not None:
                    return json_response(self._selection(spec, request, account), 200, headers)
                if spec.keyed:
                    check_plan(spec, account)
                return await self._forward(spec, request, headers)
            except ApiError as error:
                return json_response(error.body(), error.status, headers)

        return endpoint

    def _admit(self, spec: Spec, request: Request, headers: dict[str, str]) -> Account | None:
        if not spec.keyed:
            return None
        keys = request.query_params.getlist("apiKey")
        account = self._accounts.get(keys[0]) if len(keys) == 1 else None
        if account is None:
            raise Unauthorized("apiKey: unknown key, or not given exactly once")
        verdict = self.limiter.hit(account.key, account.requests_per_hour, account.hour_seconds)
        headers.update(verdict.headers())
        if not verdict.allowed:
            raise TooManyRequests(
                f"apiKey: hourly limit of {verdict.limit} requests reached; "
                f"retry in {verdict.retry_after} s"
            )
        return account

    def _selection(self, spec: Spec, request: Request, account: Account) -> dict[str, Any]:
        if spec.path == SELECT:
            names: list[str] = parse_query(spec.params, request.query_params.multi_items())[
                "bookmakers"
            ]
            invalid = [name for name in names if name not in self.selection]
            if invalid:
                raise BadRequest(
                    "bookmakers: not carried by this relay: "
                    f"{', '.join(repr(n[:40]) for n in invalid[:5])}",
                    invalidBookmakers=invalid,
                )
            self._accounts.select(account, names)
        elif spec.path == CLEAR:
            self._accounts.clear(account, time.time())
        return {"bookmakers": account.selection, "count": len(account.selection)}

    async def upstream(self, template: str, path: str, params: dict[str, str]) -> Answer:
        """GET `path` (a route `template` of the interface) from upstream through the cache."""
        spec = next(s for s in ROUTES if s.path == template and s.method == "GET")
        items = list(params.items())
        key = ("GET", path, *sorted(f"{k}={v}" for k, v in items))

        async def ask() -> Answer:
            return await self._ask(spec, "GET", path, items)

        return await self.cache.fetch(key, TTL.get(template, DEFAULT_TTL), ask)

    async def _forward(self, spec: Spec, request: Request, headers: dict[str, str]) -> Response:
        path = request.url.path[len(BASE) :]
        items = [(k, v) for k, v in request.query_params.multi_items() if k != "apiKey"]
        if spec.body is not None:  # a POST (grading): its JSON body passed on, never cached
            body = await read_json_body(request)
            answer = await self._ask(spec, request.method, path, items, body)
            return Response(answer.body, answer.status, {**answer.headers, **headers})
        key = (request.method, path, *sorted(f"{k}={v}" for k, v in items))
        floor = self._relay.journal.floor

        async def ask() -> Answer:
            return await self._ask(spec, request.method, path, items)

        answer = await self.cache.fetch(
            key, TTL.get(spec.path, DEFAULT_TTL), ask, lambda a: a.seq is None or a.seq >= floor
        )
        sent = {**answer.headers, **headers}
        if answer.seq is not None:
            seq = await self._handoff(answer.seq)
            for name in SEQ_HEADERS:
                if name.lower() in sent:
                    sent[name.lower()] = str(seq)
        return Response(answer.body, answer.status, sent)

    async def _handoff(self, seq: int) -> int:
        """The seq to hand out for a snapshot at `seq`: never ahead of the relay's feed."""
        relay = self._relay
        deadline = asyncio.get_running_loop().time() + HANDOFF_WAIT
        while relay.seq < seq and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        return min(seq, relay.seq)

    async def _ask(
        self, spec: Spec, method: str, path: str, items: list[tuple[str, str]], body: Any = None
    ) -> Answer:
        query = [*items, ("apiKey", self._key)] if spec.keyed else items
        self.upstream_requests += 1
        failure = ""
        try:
            response = await self._http.request(
                method, path.lstrip("/"), params=tuple(query), json=body
            )
        except httpx.HTTPError as error:
            failure = plain(redact(str(error) or type(error).__name__, self._key))
        if failure:
            log.warning("upstream %s %s failed: %s", method, spec.path, failure)
            return _unavailable(f"the relay cannot reach its upstream ({failure})")
        if response.status_code == 401:
            return _unavailable("the relay's upstream refused the relay's key")
        if response.status_code == 429:
            # The upstream key's limit, not the desk's: a 429 with the desk's own x-ratelimit
            # numbers (plenty remaining) would contradict itself. A desk's 429 is its own.
            wait = response.headers.get("retry-after", "").strip()
            return _unavailable(
                "the relay's upstream key is rate limited; try again later",
                wait if wait.isdigit() else "30",
            )
        kept = {k: v for k, v in response.headers.items() if k.lower() in KEPT_HEADERS}
        seq = _seq(response.headers)
        body = response.content
        if response.status_code != 200 and self._key.encode() in body:
            body = body.replace(self._key.encode(), b"<redacted>")  # an upstream echoing it
        if response.status_code == 200 and spec.path not in NO_PLACES:
            try:
                self._relay.places.learn_all(loads(response.content))
            except ValueError:
                pass
        return Answer(response.status_code, body, kept, seq)


def _seq(headers: httpx.Headers) -> int | None:
    for name in SEQ_HEADERS:
        value = headers.get(name)
        if value is not None and value.strip().isdigit():
            return int(value)
    return None


def _unavailable(text: str, retry_after: str = "2") -> Answer:
    body = json_response({"error": text}).body
    headers = {"content-type": "application/json", "retry-after": retry_after}
    return Answer(503, bytes(body), headers, None)
