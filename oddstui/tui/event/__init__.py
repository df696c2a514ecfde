"""The Event screen: the price grid and its figures, scoreboard, crests, closing odds, movement."""
