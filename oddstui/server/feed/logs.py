"""Keep uvicorn's log free of a false alarm that every refused feed handshake raises."""

from __future__ import annotations

import logging

# uvicorn's websockets-sansio protocol logs this after a denial response (HTTP 400/401/403 sent
# through the "websocket.http.response" extension), although the response went out fine.
_FALSE_ALARM = "ASGI callable returned without completing handshake."


class _DenialNoise(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg != _FALSE_ALARM


_INSTALLED = _DenialNoise()


def quiet_denials() -> None:
    """Install the filter once on uvicorn's error logger (idempotent)."""
    logger = logging.getLogger("uvicorn.error")
    if _INSTALLED not in logger.filters:
        logger.addFilter(_INSTALLED)
