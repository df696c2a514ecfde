"""Who may open the feed, with which filters; refusals go out as HTTP errors before the upgrade."""

from __future__ import annotations

import contextlib
from collections.abc import Collection

from starlette.datastructures import QueryParams
from starlette.responses import JSONResponse
from starlette.websockets import WebSocket

from oddstui.server.accounts import PAID, Account, Accounts
from oddstui.server.feed.params import BadFilter, FeedFilter, parse_filter

BAD_KEY = "Invalid or missing API key. Pass it once, as the apiKey query parameter"
NO_FEED = "This account has no access to the WebSocket feed (a paid add-on)"
NOT_IN_PLAN = "The WebSocket feed is not in the free plan; use the REST endpoints"


class Denied(Exception):
    """A refused handshake: the HTTP status and the `error` text."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text


def admit(
    query: QueryParams, accounts: Accounts, known_markets: Collection[str] | None = None
) -> tuple[str, Account, FeedFilter]:
    """The key, its account and the validated filters; raises `Denied` (401, 403, then 400).

    `known_markets`: the case-folded market names the source quotes, None when it cannot tell.
    """
    keys = query.getlist("apiKey")
    key = keys[0] if len(keys) == 1 else ""
    account = accounts.get(key)
    if account is None:
        raise Denied(401, BAD_KEY)
    if not account.has_feed:  # no add-on, or a free plan (which has no feed)
        raise Denied(403, NO_FEED if account.plan == PAID else NOT_IN_PLAN)
    try:
        return key, account, parse_filter(query, known_markets)
    except BadFilter as error:
        raise Denied(400, str(error)) from None


async def deny(websocket: WebSocket, denial: Denied) -> None:
    """Answer the handshake with an HTTP error and a JSON body, before any upgrade."""
    response = JSONResponse({"error": denial.text}, status_code=denial.status)
    try:
        await websocket.send_denial_response(response)
    except RuntimeError:  # a server without the denial extension: a bare refusal (HTTP 403)
        with contextlib.suppress(Exception):
            await websocket.close(code=1008, reason=denial.text[:100])
    except Exception:  # the client went away first
        return
