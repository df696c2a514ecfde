"""`oddstui relay`: one upstream feed connection for a key, served to any number of desks.

`Relay` (relay.py) keeps the replay window and serves the feed through the server core's
`FeedCore`; `RelayRest` (rest.py) answers the REST routes from upstream through a short cache;
the stream comes from the upstream feed client (upstream.py) or a NATS stream (nats_bus.py).
"""
