"""A tiny TCP proxy, as a load balancer, socat or an SSH tunnel behaves: it accepts every
connection, then connects to its target; when the target is down it closes the accepted
connection cleanly (the client hears end of stream, not a refusal). Bytes pass untouched.
"""

from __future__ import annotations

import asyncio
import contextlib


class TcpProxy:
    """`async with TcpProxy(port) as proxy:` then connect to `proxy.base_url`."""

    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self.accepted = 0
        self.target_down = 0  # connections closed because the target refused
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v3"

    async def __aenter__(self) -> TcpProxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._server is not None
        self._server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        for task in list(self._tasks):
            task.cancel()
        await self._server.wait_closed()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            self.target_down += 1
            writer.close()  # a FIN after the accept: "did not receive a valid HTTP response"
            return
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pump(source, sink, (writer, up_writer)))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(
        self,
        source: asyncio.StreamReader,
        sink: asyncio.StreamWriter,
        pair: tuple[asyncio.StreamWriter, asyncio.StreamWriter],
    ) -> None:
        self._writers.update(pair)
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()
        for writer in pair:  # one side ended: so does the link, as a proxy's would
            self._writers.discard(writer)
            writer.close()
