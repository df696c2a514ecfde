"""The close frame the feed writes itself onto a transport whose writes are paused."""

from __future__ import annotations

import asyncio

from websockets.frames import Close, Frame, Opcode
from websockets.streams import StreamReader

from oddstui.server.feed.stall import abort_if_held, close_frame


def parse(data: bytes) -> Frame:
    reader = StreamReader()
    reader.feed_data(data)
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    raise AssertionError("the frame is incomplete")


def test_the_close_frame_is_a_valid_unmasked_close_with_code_and_reason() -> None:
    frame = parse(close_frame(4008, "slow consumer"))
    assert frame.opcode is Opcode.CLOSE and frame.fin
    close = Close.parse(frame.data)
    assert (close.code, close.reason) == (4008, "slow consumer")


def test_a_long_reason_is_cut_to_fit_a_control_frame() -> None:
    frame = parse(close_frame(1001, "x" * 500))
    assert len(frame.data) <= 125
    assert Close.parse(frame.data).code == 1001


async def test_a_socket_that_closed_on_its_own_is_not_aborted_again() -> None:
    # asyncio's transport, closed with bytes still buffered, lets go of its loop once the peer
    # takes them; a plain abort() afterwards raises inside the loop's callback.
    accepted: asyncio.Future[asyncio.StreamWriter] = asyncio.get_running_loop().create_future()

    async def on_connect(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.set_result(writer)

    server = await asyncio.start_server(on_connect, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        reader, client = await asyncio.open_connection("127.0.0.1", port)
        writer = await accepted
        transport = writer.transport
        assert isinstance(transport, asyncio.Transport)
        transport.write(b"x" * (8 << 20))  # more than the kernel buffers take
        transport.close()
        assert transport.get_write_buffer_size() > 0
        await reader.read()  # the peer takes everything, and the transport closes itself
        assert transport.get_write_buffer_size() == 0
        abort_if_held(transport)  # transport.abort() here raises AttributeError
        client.close()
