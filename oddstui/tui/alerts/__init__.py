"""Watchlist alerts: the rules, their checks and store, the alert centre and its screens."""
