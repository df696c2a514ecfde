"""The v3 odds SDK: typed wire models, the REST client (`ApiClient`) and the feed client.

```python
async with ApiClient("http://127.0.0.1:8765/v3", "demo") as api:
    live = await api.live_events()
    record, seq = await api.odds_with_seq(live[0].id, ["Bet365", "Pinnacle"])
```
"""

from oddstui.api.errors import (
    BadRequest,
    Forbidden,
    MalformedRecord,
    NotFound,
    OddsApiError,
    RateLimited,
    RequestRejected,
    ServerError,
    ServiceError,
    ServiceUnavailable,
    Unauthorized,
)
from oddstui.api.models import (
    ArbitrageBet,
    Bookmaker,
    Budget,
    Clock,
    DroppingOdds,
    Event,
    League,
    Line,
    MarketQuote,
    Movements,
    Named,
    OddsRecord,
    Participant,
    Scores,
    SelectedBookmakers,
    Sport,
    ValueBet,
)
from oddstui.api.rest import ApiClient

__all__ = [
    "ApiClient",
    "ArbitrageBet",
    "BadRequest",
    "Bookmaker",
    "Budget",
    "Clock",
    "DroppingOdds",
    "Event",
    "Forbidden",
    "League",
    "Line",
    "MalformedRecord",
    "MarketQuote",
    "Movements",
    "Named",
    "NotFound",
    "OddsApiError",
    "OddsRecord",
    "Participant",
    "RateLimited",
    "RequestRejected",
    "Scores",
    "SelectedBookmakers",
    "ServerError",
    "ServiceError",
    "ServiceUnavailable",
    "Sport",
    "Unauthorized",
    "ValueBet",
]
