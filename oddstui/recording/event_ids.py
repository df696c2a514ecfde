"""Which event a feed message is about, read from its JSON text without parsing all of it.

The recorder counts each event's messages in the manifest, and a shared backtest deals events
out among its processes before reading their messages; neither needs the message's prices.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

# How an odds message begins, as the services send it: its id is then a top-level key (only
# scalars come before it), found without reading the rest of the message.
_ODDS_HEAD = re.compile(
    r'\{"type":"[a-z_]+","seq":\d+,(?:"timestamp":"[^"\\]*",)?"id":("?)(\d+)\1[,}]'
)


class _Id(msgspec.Struct, gc=False):
    id: Any = None


_decode_id = msgspec.json.Decoder(_Id).decode


def message_event_id(text: str) -> int | None:
    """The message's `id` as `as_event_id` has it; None when it has none or is no object."""
    head = _ODDS_HEAD.match(text)
    if head is not None:
        return int(head[2])
    try:
        return as_event_id(_decode_id(text).id)
    except msgspec.DecodeError:
        return None


def as_event_id(value: object) -> int | None:
    """An event id as a number, whether it came as one or as text; None for none readable."""
    if isinstance(value, bool):
        return None
    try:
        return int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        return None
