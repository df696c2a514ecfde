"""The world's handler for every path of the route table (`oddstui.server.routes.ROUTES`)."""

from __future__ import annotations

from oddstui.service.routes import (
    account,
    catalog,
    derived,
    events,
    markets,
    meta,
    odds,
    settlements,
)
from oddstui.service.routes.call import Handler

HANDLERS: dict[str, Handler] = {
    **catalog.HANDLERS,
    **account.HANDLERS,
    **events.HANDLERS,
    **odds.HANDLERS,
    **derived.HANDLERS,
    **settlements.HANDLERS,
    **markets.HANDLERS,
    **meta.HANDLERS,
}
