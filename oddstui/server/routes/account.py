"""The account's bookmaker selection: read it, replace it, clear it."""

from __future__ import annotations

from oddstui.server.params import LIST, Param
from oddstui.server.routes.spec import Route

MAX_SELECTION = 1000
FREE_SELECTION = 2  # a free plan selects at most two bookmakers
_SELECTION = {"$ref": "#/components/schemas/SelectedBookmakers"}
ROUTES = (
    Route(
        "GET",
        "/bookmakers/selected",
        "The account's selected bookmakers",
        _SELECTION,
        errors=(401, 429),
        tag="account",
    ),
    Route(
        "PUT",
        "/bookmakers/selected/select",
        "Replace the account's selection; unknown names give 400 with invalidBookmakers",
        _SELECTION,
        params=(
            Param(
                "bookmakers",
                LIST,
                "comma-separated bookmaker names (case-sensitive)",
                required=True,
                max_items=MAX_SELECTION,
                max_length=80,
            ),
        ),
        tag="account",
    ),
    Route(
        "PUT",
        "/bookmakers/selected/clear",
        "Clear the account's selection (the feed then carries no bookmaker until one is chosen)",
        _SELECTION,
        errors=(401, 429),
        tag="account",
    ),
)
