"""Settings and the bookmaker chooser."""
