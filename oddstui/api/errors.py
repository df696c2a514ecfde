"""The errors of the v3 client. None of them ever carries the API key."""

from __future__ import annotations


class OddsApiError(Exception):
    """Base of every error the client raises."""


class MalformedRecord(OddsApiError, ValueError):
    """A record from the network that does not fit the models; the message says why, briefly."""


class RequestRejected(OddsApiError, ValueError):
    """A request that breaks the interface's limits, refused before anything is sent."""


class ServiceError(OddsApiError):
    """The service answered with an error status; `message` is its `error` text (plain text)."""

    status: int = 0

    def __init__(self, message: str, *, status: int | None = None, path: str = "") -> None:
        self.message = message
        if status is not None:
            self.status = status
        self.path = path
        where = f" on {path}" if path else ""
        super().__init__(f"{self.status}{where}: {message}" if self.status else message)


class BadRequest(ServiceError):
    status = 400
    invalid_bookmakers: tuple[str, ...] = ()
    """Names the service refused (PUT /bookmakers/selected/select)."""


class Unauthorized(ServiceError):
    """401: a missing or unknown key. Fatal: retrying will not help."""

    status = 401


class Forbidden(ServiceError):
    """403: the plan or add-on lacks access. Fatal."""

    status = 403


class NotFound(ServiceError):
    status = 404


class RateLimited(ServiceError):
    """429 after the bounded retries ran out; `retry_after` is the last wait the service asked."""

    status = 429

    def __init__(self, message: str, *, retry_after: float | None = None, path: str = "") -> None:
        self.retry_after = retry_after
        super().__init__(message, path=path)


class ServerError(ServiceError):
    """5xx or another unexpected status."""

    status = 500


class ServiceUnavailable(OddsApiError):
    """The service could not be reached (connection refused, timeout, reset, bad response)."""
