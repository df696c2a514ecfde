"""The relay's Starlette app: the REST routes and the feed at `{base}/ws`, as the service has."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.routing import BaseRoute, WebSocketRoute

from oddstui.relay.relay import Relay
from oddstui.relay.rest import RelayRest
from oddstui.server.http import BASE, ERROR_HANDLERS


def create_relay_app(relay: Relay, rest: RelayRest) -> Starlette:
    routes: list[BaseRoute] = [*rest.routes(), WebSocketRoute(BASE + "/ws", relay.feed.endpoint)]
    app = Starlette(
        routes=routes,
        exception_handlers=dict(ERROR_HANDLERS),
    )
    app.router.redirect_slashes = False
    return app
