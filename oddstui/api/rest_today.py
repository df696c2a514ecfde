"""The REST calls the public interface gained after the seed (PUBLIC-V3-DELTA.md): a sport's
markets, settlements, grading bets, closing lines and clearing the bookmaker selection.
`ApiClient` has them all; settlements, grading and closing lines need a paid plan (`Forbidden`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

import oddstui.api.validate as check
from oddstui.api.errors import MalformedRecord, RequestRejected
from oddstui.api.models import (
    OddsRecord,
    SelectedBookmakers,
    parse_odds_record,
    parse_selected_bookmakers,
)
from oddstui.api.models.settlements import (
    Grade,
    MarketInfo,
    Selection,
    Settlements,
    parse_grades,
    parse_market_info,
    parse_settlements,
)
from oddstui.api.rest_session import Params, RestSession

MAX_SETTLEMENT_IDS = 50
MAX_SELECTIONS = 50


class TodayCalls(RestSession):
    async def markets(self, sport: str) -> list[MarketInfo]:
        """GET /markets: the exact market names a sport serves (what `odds_updated` takes)."""
        return await self._list(
            "/markets", parse_market_info, {"sport": check.slug(sport, "sport")}
        )

    async def settlements(self, event_ids: Iterable[int | str]) -> Settlements:
        """GET /settlements: status, final score and `final` of up to 50 events."""
        ids = [check.event_id(i) for i in dict.fromkeys(event_ids)]
        if not ids or len(ids) > MAX_SETTLEMENT_IDS:
            raise RequestRejected(f"eventIds: from 1 to {MAX_SETTLEMENT_IDS} ids, got {len(ids)}")
        params: Params = {"eventIds": ",".join(map(str, ids))}
        return await self._one("/settlements", parse_settlements, params)

    async def grade(self, selections: Sequence[Selection]) -> list[Grade]:
        """POST /settlements/grade: one verdict per selection, in the order sent."""
        if not selections or len(selections) > MAX_SELECTIONS:
            raise RequestRejected(f"selections: from 1 to {MAX_SELECTIONS}, got {len(selections)}")
        body = {"selections": [selection.to_wire() for selection in selections]}
        response = await self._send("POST", "/settlements/grade", body=body)
        assert response is not None
        try:
            return parse_grades(self._json(response, "/settlements/grade"))
        except MalformedRecord as error:
            raise MalformedRecord(f"/settlements/grade: {error}") from None

    async def closing_lines(
        self,
        sport: str,
        start: datetime | str,
        to: datetime | str,
        bookmakers: Iterable[str] | str,
        *,
        leagues: Iterable[str] | None = None,
        markets: Iterable[str] | None = None,
        limit: int | None = None,
    ) -> list[OddsRecord]:
        """GET /historical/closing-lines: the last price before kickoff and the final score."""
        params: Params = {
            "sport": check.slug(sport, "sport"),
            "from": check.timestamp(start, "from"),
            "to": check.timestamp(to, "to"),
            "bookmakers": check.bookmakers(bookmakers),
        }
        if leagues is not None:
            params["leagues"] = check.names(leagues, "leagues")
        if markets is not None:
            params["markets"] = check.names(markets, "markets")
        if limit is not None:
            params["limit"] = check.bounded_int(limit, "limit", 1, 500)
        return await self._list("/historical/closing-lines", parse_odds_record, params)

    async def clear_selected_bookmakers(self) -> SelectedBookmakers:
        """PUT /bookmakers/selected/clear (the public service allows it once every 12 hours)."""
        response = await self._send("PUT", "/bookmakers/selected/clear")
        assert response is not None
        try:
            return parse_selected_bookmakers(self._json(response, "/bookmakers/selected/clear"))
        except MalformedRecord as error:
            raise MalformedRecord(f"/bookmakers/selected/clear: {error}") from None
