"""Odds texts for downstream clients: the upstream's own line, or it cut to a client's markets
(the server core's `LineRenderer`, shared with `oddstui replay`)."""

from oddstui.server.feed.render import LineRenderer, cut_markets

__all__ = ["LineRenderer", "cut_markets"]
