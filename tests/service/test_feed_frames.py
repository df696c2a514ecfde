"""The feed's shared frames: split between messages at the limit, and bytes that a WebSocket
client reads as the same text (checked with the websockets library's own frame parser)."""

from __future__ import annotations

from collections.abc import Generator

import pytest
from websockets.frames import Frame as WsFrame
from websockets.frames import Opcode
from websockets.streams import StreamReader

from oddstui.server.feed.frames import FrameCache, split_frames


def parse(wire: bytes) -> WsFrame:
    reader = StreamReader()
    reader.feed_data(wire)
    reader.feed_eof()
    parser: Generator[None, None, WsFrame] = WsFrame.parse(
        reader.read_exact, mask=False, max_size=None
    )
    try:
        next(parser)
        while True:
            parser.send(None)
    except StopIteration as done:
        return done.value


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65535, 65536, 300_000])
def test_a_frame_s_bytes_are_one_text_frame_with_its_text(size: int) -> None:
    text = ("é" + "x" * size)[:size]  # multi-byte characters: the length is in bytes
    (frame,) = split_frames([text], limit=1 << 30)
    parsed = parse(frame.wire())
    assert parsed.opcode is Opcode.TEXT and parsed.fin
    assert bytes(parsed.data).decode() == text


def test_frames_split_between_messages_never_inside_one() -> None:
    texts = [f'{{"seq":{n},"pad":"{"p" * 40}"}}' for n in range(100)]
    frames = split_frames(texts, limit=1000)
    assert len(frames) > 1
    assert all(len(frame) <= 1000 for frame in frames)
    assert "\n".join(frame.text for frame in frames).split("\n") == texts
    (whole,) = split_frames(texts, limit=1 << 20)
    assert whole.text == "\n".join(texts)


def test_one_list_handed_to_many_connections_is_joined_once() -> None:
    cache = FrameCache(1 << 20)
    shared = ["a", "b"]
    first = cache.frames(shared)
    assert cache.frames(shared) is first
    assert cache.frames(["a", "b"]) is not first  # an equal list of other texts: its own
    assert first[0].wire() is first[0].wire()  # encoded once, however many sockets take it
