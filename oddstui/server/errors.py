"""Errors a route can raise; the app turns each into `{"error": ...}` with its status."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An answer other than 200: `status` and a one-line message, plus optional extra fields."""

    status = 500

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.message, **self.extra}


class BadRequest(ApiError):
    status = 400


class Unauthorized(ApiError):
    status = 401


class Forbidden(ApiError):
    status = 403


class NotFound(ApiError):
    status = 404


class TooManyRequests(ApiError):
    status = 429
