"""The account's bookmaker selection, kept per key for as long as the process runs."""

from __future__ import annotations

from typing import Any

from oddstui.service.errors import BadRequest
from oddstui.service.params import LIST, Param
from oddstui.service.routes.spec import Call, Route

MAX_SELECTION = 1000


def _shape(names: list[str]) -> dict[str, Any]:
    return {"bookmakers": names, "count": len(names)}


def selected(call: Call) -> dict[str, Any]:
    assert call.account is not None
    return _shape(call.account.selection)


def select(call: Call) -> dict[str, Any]:
    assert call.account is not None
    names: list[str] = call.q["bookmakers"]
    invalid = [name for name in names if name not in call.world.bookmakers]
    if invalid:
        raise BadRequest(
            f"bookmakers: unknown bookmaker{'s' if len(invalid) > 1 else ''} "
            f"{', '.join(repr(n[:40]) for n in invalid[:5])}; names are case-sensitive",
            invalidBookmakers=invalid,
        )
    return _shape(call.svc.accounts.select(call.account, names))


_SELECTION = {"$ref": "#/components/schemas/SelectedBookmakers"}
ROUTES = (
    Route(
        "GET",
        "/bookmakers/selected",
        selected,
        "The account's selected bookmakers",
        _SELECTION,
        errors=(401, 429),
        tag="account",
    ),
    Route(
        "PUT",
        "/bookmakers/selected/select",
        select,
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
)
