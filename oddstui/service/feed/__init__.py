"""The world's feed at `{base}/ws`: the server core's `FeedCore` fed by the world's journal.

`FeedHub(world, accounts)` gives `routes()` to mount under `/v3` and `async shutdown()`.
"""

from oddstui.service.feed.hub import FeedHub

__all__ = ["FeedHub"]
