"""Finding events: sports, leagues, events, live, watchlist and search."""
