"""The route table: every REST endpoint of the service, in matching order.

`app.py` serves exactly these and `openapi.py` documents exactly these, so the two cannot drift.
Fixed paths come before `{id}` paths that could shadow them (`/events/live` before `/events/{id}`).
"""

from __future__ import annotations

from oddstui.service.routes import account, catalog, derived, events, meta, odds
from oddstui.service.routes.spec import Route

ROUTES: tuple[Route, ...] = (
    *catalog.ROUTES,
    *account.ROUTES,
    *events.ROUTES,
    *odds.ROUTES,
    *derived.ROUTES,
    *meta.ROUTES,
)
