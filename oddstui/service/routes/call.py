"""One checked request as a world handler sees it: the service, the account, the values."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from oddstui.server.accounts import Account

if TYPE_CHECKING:
    from oddstui.service.context import ServiceContext
    from oddstui.service.world import World


@dataclass(slots=True)
class Call:
    """Validated query and path values, the account, and headers to add to the answer."""

    svc: ServiceContext
    account: Account | None
    q: dict[str, Any]
    path: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)  # extra response headers
    body: Any = None  # a POST route's JSON body

    @property
    def world(self) -> World:
        return self.svc.world


Handler = Callable[[Call], Any]
