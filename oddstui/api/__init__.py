"""The v3 odds SDK: typed wire models, the REST client (`ApiClient`) and the feed client.

```python
async with ApiClient("http://127.0.0.1:8765/v3", "demo") as api:
    live = await api.live_events()
    record, seq = await api.odds_with_seq(live[0].id, ["Bet365", "Pinnacle"])
```
"""

from typing import TYPE_CHECKING, Any

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
from oddstui.api.models.settlements import Grade, MarketInfo, Selection, Settlement, Settlements

if TYPE_CHECKING:
    from oddstui.api.rest import ApiClient


def __getattr__(name: str) -> Any:
    # The REST client loads httpx (a third of a second): only what uses it pays for it, not
    # `oddstui serve` or the command line's parser, which read the wire models and checks.
    if name == "ApiClient":
        from oddstui.api.rest import ApiClient

        return ApiClient
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    # today's interface: markets, settlements, grading
    "Grade",
    "MarketInfo",
    "Selection",
    "Settlement",
    "Settlements",
]
