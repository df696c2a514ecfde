"""The route table's record: one `Route` states a path of the interface once, and both the
service's app (with a handler per path) and the OpenAPI document are built from it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from oddstui.server.params import Param

JSON = "application/json"
PNG = "image/png"


@dataclass(frozen=True, slots=True)
class Route:
    method: str
    path: str  # relative to /v3, e.g. "/events/{id}"
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
    paid_only: bool = False  # a free plan's key gets 403
    body: dict[str, Any] | None = None  # JSON schema of a POST's JSON body
