"""The Starlette app of `oddstui web`: the page, the static files and the desks' WebSocket.

Routes: `/` (the token's first visit sets the cookie and redirects to `/`; then the desk's page),
`/ws` (a desk per connection, cookie and same Origin or 403), `/status` (how many desks and relay
feed clients, cookie or 403) and `/static` (textual-serve's script, stylesheet and fonts).
There is no download route: the desk copies stakes with OSC 52, which the page's terminal
puts on the browser's clipboard.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from oddstui.web.gate import COOKIE, Gate, same_origin
from oddstui.web.page import STATIC, desk_page, full_page, refused_page
from oddstui.web.sessions import DeskProcess, Desks

NO_STORE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
DEFAULT_SIZE = (80, 24)
MAX_SIZE = 1000  # columns or rows a browser may ask for


def create_web_app(gate: Gate, desks: Desks, relay_clients: Callable[[], int]) -> Starlette:
    async def index(request: Request) -> Response:
        token = request.query_params.get("token")
        if token is not None:
            cookie = gate.redeem(token)
            if cookie is None:
                return HTMLResponse(refused_page(), 403, headers=NO_STORE)
            response = RedirectResponse("/", 303, headers=NO_STORE)
            response.set_cookie(COOKIE, cookie, httponly=True, samesite="strict", path="/")
            return response
        if not gate.admits(request.cookies.get(COOKIE)):
            return HTMLResponse(refused_page(), 403, headers=NO_STORE)
        if desks.full:
            return HTMLResponse(full_page(desks.cap), 503, headers=NO_STORE)
        return HTMLResponse(desk_page(), headers=NO_STORE)

    async def status(request: Request) -> Response:
        if not gate.admits(request.cookies.get(COOKIE)):
            return JSONResponse({"error": "sign in with the printed address"}, 403)
        return JSONResponse(
            {"desks": len(desks.open), "cap": desks.cap, "relay_feed_clients": relay_clients()}
        )

    async def desk_socket(websocket: WebSocket) -> None:
        admitted = gate.admits(websocket.cookies.get(COOKIE)) and same_origin(websocket.headers)
        if not admitted or desks.full:
            await websocket.close(code=1008)  # before accept: the handshake gets 403
            return
        width = _size(websocket.query_params.get("width"), DEFAULT_SIZE[0])
        height = _size(websocket.query_params.get("height"), DEFAULT_SIZE[1])
        await websocket.accept()

        async def close() -> None:
            with contextlib.suppress(Exception):
                await websocket.close()

        key, desk = await desks.start(
            width, height, websocket.send_bytes, websocket.send_text, close
        )
        try:
            await _relay_browser(websocket, desk)
        except (WebSocketDisconnect, RuntimeError, asyncio.CancelledError):
            pass
        finally:
            await desks.end(key)

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/status", status),
            WebSocketRoute("/ws", desk_socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )
    return app


async def _relay_browser(websocket: WebSocket, desk: DeskProcess) -> None:
    """The browser's envelopes to the desk, as textual-serve's own server reads them."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            continue  # the page sends text envelopes only: a binary frame is skipped
        try:
            envelope = json.loads(text)
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
        except (ValueError, TypeError, IndexError, KeyError):
            continue  # malformed: skipped
        if kind == "stdin" and isinstance(data, str):
            await desk.send_bytes(data.encode("utf-8"))
        elif kind == "resize" and isinstance(data, dict):
            width = _size(data.get("width"), DEFAULT_SIZE[0])
            height = _size(data.get("height"), DEFAULT_SIZE[1])
            await desk.set_terminal_size(width, height)
        elif kind == "ping":
            await websocket.send_text(json.dumps(["pong", data]))
        elif kind == "blur":
            await desk.blur()
        elif kind == "focus":
            await desk.focus()


def _size(value: object, default: int) -> int:
    try:
        number = int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return default
    return number if 1 <= number <= MAX_SIZE else default
