"""A WebSocket relay in front of the real built-in service that closes a replaced connection
the way the public service does: code 1000 (or 1013) and no reason, instead of 4000.

Frames pass through unchanged both ways; `sent` lists the close codes the clients were given.
REST does not pass through here: clients talk to the service directly for that.
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed, InvalidStatus

REPLACED = 4000


class PublicCloseProxy:
    def __init__(self, service_base_url: str, replaced_code: int = 1000) -> None:
        parts = urlsplit(service_base_url)
        self._upstream = f"ws://{parts.netloc}"
        self._replaced_code = replaced_code
        self._server: Server | None = None
        self.base_url = ""
        self.sent: list[int] = []

    async def __aenter__(self) -> PublicCloseProxy:
        self._server = await serve(
            self._relay, "127.0.0.1", 0, max_size=None, compression=None, ping_interval=None
        )
        port = next(iter(self._server.sockets)).getsockname()[1]
        self.base_url = f"http://127.0.0.1:{port}/v3"
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _relay(self, client: ServerConnection) -> None:
        assert client.request is not None
        try:
            service = await connect(
                self._upstream + client.request.path,
                max_size=None,
                compression=None,
                ping_interval=None,
                proxy=None,
            )
        except (InvalidStatus, OSError):
            await client.close(1011, "the service refused")
            return
        down = asyncio.create_task(_pump(service, client))
        up = asyncio.create_task(_pump(client, service))
        await asyncio.wait({down, up}, return_when=asyncio.FIRST_COMPLETED)
        if down.done():  # the service ended it: pass its close on, 4000 rewritten
            code = service.close_code or 1011
            if code == REPLACED:
                code, reason = self._replaced_code, ""
            elif code in (1005, 1006):
                code, reason = 1011, ""
            else:
                reason = service.close_reason or ""
            self.sent.append(code)
            await client.close(code, reason)
        else:
            await service.close()
        for task in (down, up):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                await task


async def _pump(
    source: ClientConnection | ServerConnection, sink: ClientConnection | ServerConnection
) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for message in source:
            await sink.send(message)
