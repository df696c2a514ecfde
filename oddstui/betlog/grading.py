"""The bet log against a service that grades bets: every leg the bet log settled from the
final score is sent to POST /settlements/grade, and the legs where the service reads it
otherwise are listed (a result the service has not confirmed yet, `pending`, is no
disagreement). Both should apply `book.settlement.grade_leg`; a disagreement means the
score, the market's reading or the service's rule differs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from oddstui.api.models.settlements import Selection
from oddstui.betlog.bets import Bet, BetLeg
from oddstui.book.settlement import PENDING, VERDICTS

if TYPE_CHECKING:  # the HTTP client is imported by whoever makes one, not by every command
    from oddstui.api.rest import ApiClient

BATCH = 50  # selections per request, the interface's limit


@dataclass(frozen=True, slots=True)
class Disagreement:
    bet: Bet
    number: int  # the leg's number in its bet, from 1
    leg: BetLeg
    theirs: str  # the service's verdict
    reason: str

    @property
    def line(self) -> str:
        mine = "open" if self.leg.result is None else VERDICTS[self.leg.result]
        why = f" ({self.reason})" if self.reason else ""
        return (
            f"bet {self.bet.id} leg {self.number} {self.bet.event_name}: "
            f"{self.leg.line_text} {self.leg.side}: the bet log says {mine}, "
            f"the service says {self.theirs}{why}"
        )


async def check_grades(api: ApiClient, bets: Sequence[Bet]) -> tuple[int, list[Disagreement]]:
    """(legs checked, the disagreements) for the legs settled from the score."""
    legs = [
        (bet, number, leg)
        for bet in bets
        for number, leg in enumerate(bet.legs, 1)
        if leg.result is not None and leg.settled_by == "score"
    ]
    found: list[Disagreement] = []
    for start in range(0, len(legs), BATCH):
        batch = legs[start : start + BATCH]
        selections = [
            Selection(bet.event_id, leg.market, leg.side, leg.hdp, leg.label, ref=n)
            for n, (bet, _number, leg) in enumerate(batch)
        ]
        grades = await api.grade(selections)
        for (bet, number, leg), grade in zip(batch, grades, strict=True):
            assert leg.result is not None
            if grade.result != PENDING and grade.result != VERDICTS[leg.result]:
                found.append(Disagreement(bet, number, leg, grade.result, grade.reason))
    return len(legs), found
