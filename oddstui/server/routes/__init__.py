"""The route table: every REST path of the interface, in matching order.

The service's app serves exactly these (a handler per path), the relay forwards exactly these,
and `openapi.py` documents exactly these, so none of them can drift. Fixed paths come before
`{id}` paths that could shadow them (`/events/live` before `/events/{id}`).
"""

from __future__ import annotations

from oddstui.server.routes import account, catalog, derived, events, meta, odds, settlements
from oddstui.server.routes.spec import Route

ROUTES: tuple[Route, ...] = (
    *catalog.ROUTES,
    *account.ROUTES,
    *events.ROUTES,
    *odds.ROUTES,
    *derived.ROUTES,
    *settlements.ROUTES,
    *meta.ROUTES,
)
