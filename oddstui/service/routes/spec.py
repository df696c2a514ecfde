"""The route table's record: one `Route` both serves a path and documents it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from oddstui.service.accounts import Account
from oddstui.service.context import ServiceContext
from oddstui.service.params import Param

JSON = "application/json"
PNG = "image/png"


@dataclass(slots=True)
class Call:
    """One request as a handler sees it: validated query and path values, the account."""

    svc: ServiceContext
    account: Account | None
    q: dict[str, Any]
    path: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)  # extra response headers

    @property
    def world(self) -> Any:
        return self.svc.world


Handler = Callable[[Call], Any]


@dataclass(frozen=True, slots=True)
class Route:
    method: str
    path: str  # relative to /v3, e.g. "/events/{id}"
    handler: Handler
    summary: str
    response: dict[str, Any]  # JSON schema of the 200 body (or of the PNG for media PNG)
    params: tuple[Param, ...] = ()
    path_params: tuple[Param, ...] = ()
    keyed: bool = True  # needs apiKey and counts against the hourly limit
    media: str = JSON
    errors: tuple[int, ...] = (400, 401, 429)
    tag: str = ""
    notes: str = ""
    response_headers: tuple[str, ...] = ()
