"""Bookmaker intelligence on the desk: the Books screen and the Stale lines board."""
