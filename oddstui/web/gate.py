"""Who may drive a desk: the printed one-time token, swapped for a cookie; the same Origin.

The token in the printed URL works once. The first visit swaps it for a random cookie value
(HttpOnly, SameSite=Strict) and redirects to the bare URL, so the token is in no history, no
screenshot and no `Referer`. The WebSocket then needs that cookie and an `Origin` whose host is
the page's own (`Host`), so a page from another site open in the same browser cannot drive a desk.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from urllib.parse import urlsplit

COOKIE = "oddstui_web"
TOKEN_BYTES = 24


class Gate:
    def __init__(self, token: str | None = None) -> None:
        self.token = token or secrets.token_urlsafe(TOKEN_BYTES)
        self._spent = False
        self._cookies: set[str] = set()

    def redeem(self, token: str | None) -> str | None:
        """A new cookie value for the right token on its first use; None otherwise."""
        if self._spent or not token or not secrets.compare_digest(token, self.token):
            return None
        self._spent = True
        cookie = secrets.token_urlsafe(32)
        self._cookies.add(cookie)
        return cookie

    def admits(self, cookie: str | None) -> bool:
        return bool(cookie) and any(secrets.compare_digest(cookie or "", c) for c in self._cookies)


def same_origin(headers: Mapping[str, str]) -> bool:
    """True when the request's `Origin` names the host the page was served from (`Host`); a
    reverse proxy in front must pass `Host` on (docs/web.md)."""
    origin, host = headers.get("origin"), headers.get("host")
    if not origin or not host:
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()
