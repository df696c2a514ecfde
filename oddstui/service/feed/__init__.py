"""The service's WebSocket feed at `{base}/ws`: filters, fan-out, replay, backpressure.

`FeedHub(world, accounts)` gives `routes()` to mount under `/v3` and `async shutdown()`;
`FeedCore` serves the same feed from any other source of changes (the relay).
"""

from oddstui.service.feed.hub import FeedHub

__all__ = ["FeedHub"]
