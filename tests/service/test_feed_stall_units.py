"""The close frame the feed writes itself onto a transport whose writes are paused."""

from __future__ import annotations

from websockets.frames import Close, Frame, Opcode
from websockets.streams import StreamReader

from oddstui.server.feed.stall import close_frame


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
