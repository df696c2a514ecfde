"""The market names the interface specification lists as supported (its /dropping-odds
`markets`), in its order: the one list the feed client subscribes to and the built-in service
accepts."""

SEED_MARKETS = (
    "ML",
    "Spread",
    "Totals",
    "Spread HT",
    "Totals HT",
    "Totals 1Q",
    "Spread 1Q",
    "Team Total Home",
    "Team Total Away",
    "Corners Spread",
    "Corners Totals",
    "Corners Spread HT",
    "Corners Totals HT",
    "Bookings Spread",
    "Bookings Totals",
    "Player Props",
)

#: The most market names one feed subscription may carry (the seed: "Too many markets. Maximum
#: 20 allowed.").
MAX_FEED_MARKETS = 20
