"""The account's bookmaker selection, kept per key for as long as the process runs."""

from __future__ import annotations

import time
from typing import Any

from oddstui.server.errors import BadRequest
from oddstui.service.routes.call import Call, Handler


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


def clear(call: Call) -> dict[str, Any]:
    assert call.account is not None
    return _shape(call.svc.accounts.clear(call.account, time.time()))


HANDLERS: dict[str, Handler] = {
    "/bookmakers/selected": selected,
    "/bookmakers/selected/select": select,
    "/bookmakers/selected/clear": clear,
}
