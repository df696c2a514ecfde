"""The relay's one upstream feed connection: the project's `FeedClient`, feeding the `Relay`.

Odds messages are decoded without their quotes: the relay passes each line on as it came, and
decoding every price was a quarter of its work (docs/relay.md, "Fan-out delay"). The link offers
permessage-deflate except to a loopback or private address: there the upstream's compressing
each frame (4.4 ms for a 230 kB frame) only delays it, and costs both ends CPU.

The feed client handles every upstream fault (cuts, half-open links, takeover, 429, backoff) and
the seq rules; it is given no REST client, so it never snapshots: the relay keeps no odds of its
own beyond its replay window, and a gap upstream becomes `restart` (downstream clients resync).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from oddstui.api.feed import FeedClient, FeedTimings
from oddstui.api.feed_state import FeedStatus
from oddstui.api.feed_url import FeedFilters
from oddstui.api.messages import Message, OddsMessage, ScoreMessage, StatusMessage
from oddstui.api.models import OddsRecord
from oddstui.relay.journal import Relayed
from oddstui.relay.relay import Relay
from oddstui.server.feed.params import SCORES, STATUS


class UpstreamBook:
    """The feed client's `Book`: each message it accepts goes to the relay, as received."""

    def __init__(self, relay: Relay) -> None:
        self._relay = relay

    @property
    def complete_markets(self) -> bool:
        return self._relay.complete_markets

    @complete_markets.setter
    def complete_markets(self, complete: bool) -> None:
        # Set from the upstream's welcome: the relay's own welcome passes it on to its desks.
        self._relay.complete_markets = complete

    def install_snapshot(self, records: Iterable[OddsRecord]) -> None:
        """Never called: the upstream client has no REST client to snapshot with."""

    def apply_odds(self, message: OddsMessage) -> None:
        self._relay.odds(
            Relayed(message.seq, message.kind, message.event_id, message.bookie, message.line)
        )

    def apply(self, message: Message) -> None:
        if isinstance(message, OddsMessage):
            self.apply_odds(message)
        elif isinstance(message, StatusMessage):
            self._relay.event_message(STATUS, message.event_id, message.status, message.line)
        elif isinstance(message, ScoreMessage):
            self._relay.event_message(SCORES, message.event_id, None, message.line)

    def take_changes(self) -> None:
        return None


def upstream_client(
    relay: Relay,
    base_url: str,
    api_key: str,
    markets: Sequence[str],
    timings: FeedTimings | None = None,
) -> FeedClient:
    """The feed client for the relay's upstream: every channel, the relay's markets."""

    def on_state(status: FeedStatus) -> None:
        relay.set_upstream(status.state.value, status.detail)

    return FeedClient(
        base_url,
        api_key,
        UpstreamBook(relay),
        None,
        filters=FeedFilters(markets=tuple(markets)),
        timings=timings,
        on_state_change=on_state,
        on_resync=relay.restart,
        keep_lines=True,
        compression=None if near(base_url) else "deflate",
        quotes=False,  # the relay sends each line on as it came: its prices are never read
    )


def near(base_url: str) -> bool:
    """Whether the upstream is on this machine or a private network (by its address as written;
    a name other than localhost counts as far)."""
    host = urlsplit(base_url).hostname or ""
    if host.casefold() == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private
