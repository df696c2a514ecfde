"""The feed's serving side for any source of changes: params, handshake, connections, messages,
fan-out and `FeedCore`."""
