"""The world service's Starlette app: every route of the table, checked by the server core and
answered by the world's handler for its path, plus the feed under `/v3`."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.routing import BaseRoute
from starlette.routing import Route as StarletteRoute

from oddstui.server.endpoint import Answer, Checked, checked_endpoint
from oddstui.server.http import BASE, ERROR_HANDLERS, under_base
from oddstui.server.routes import ROUTES
from oddstui.service.context import ServiceContext
from oddstui.service.routes import HANDLERS
from oddstui.service.routes.call import Call, Handler

# What reads the world's prices waits until they are open (service/warming.py); the rest
# (sports, events, scores) answers from the ready line on.
READ_PRICES = frozenset(
    {
        "/odds",
        "/odds/multi",
        "/odds/updated",
        "/odds/movements",
        "/value-bets",
        "/arbitrage-bets",
        "/dropping-odds",
        "/historical/closing-lines",
    }
)


def create_app(svc: ServiceContext) -> Starlette:
    missing = [route.path for route in ROUTES if route.path not in HANDLERS]
    if missing:
        raise LookupError(f"no handler for {', '.join(missing)}")
    routes: list[BaseRoute] = [
        StarletteRoute(
            BASE + route.path,
            checked_endpoint(
                route,
                svc.accounts,
                svc.limiter,
                _answer(svc, HANDLERS[route.path], prices=route.path in READ_PRICES),
            ),
            methods=[route.method],
        )
        for route in ROUTES
    ]
    if svc.feed is not None:
        routes.extend(under_base(feed_route) for feed_route in svc.feed.routes())
    app = Starlette(routes=routes, exception_handlers=dict(ERROR_HANDLERS))
    # `/v3/sports/` is not a path of the interface: 404 {error}, not a redirect.
    app.router.redirect_slashes = False
    return app


def _answer(svc: ServiceContext, handler: Handler, prices: bool) -> Answer:
    def answer(checked: Checked) -> object:
        call = Call(svc, checked.account, checked.q, checked.path, checked.headers, checked.body)
        if prices and not svc.warmed.is_set():
            return _when_warm(svc, handler, call)
        return handler(call)

    return answer


async def _when_warm(svc: ServiceContext, handler: Handler, call: Call) -> object:
    await svc.warmed.wait()
    return handler(call)
