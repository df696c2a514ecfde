"""Settlement routes: the status and final score of events, and grading bets (paid plans)."""

from __future__ import annotations

from oddstui.server.params import INTEGER, LIST, Param
from oddstui.server.routes.spec import Route

MAX_SETTLEMENT_IDS = 50
MAX_SELECTIONS = 50
ROUTES = (
    Route(
        "GET",
        "/settlements",
        "Status, final score by period and `final` of up to 50 events; unknown ids in notFound",
        {"$ref": "#/components/schemas/Settlements"},
        params=(
            Param(
                "eventIds",
                LIST,
                "comma-separated event ids, at most 50",
                required=True,
                max_items=MAX_SETTLEMENT_IDS,
                items=INTEGER,
                max_length=20,
            ),
        ),
        errors=(400, 401, 403, 429),
        tag="settlements",
        paid_only=True,
    ),
    Route(
        "POST",
        "/settlements/grade",
        "Grade up to 50 selections from the final score, in the order sent, `ref` echoed",
        {"$ref": "#/components/schemas/Grades"},
        errors=(400, 401, 403, 429),
        tag="settlements",
        paid_only=True,
        body={"$ref": "#/components/schemas/GradeRequest"},
    ),
)
