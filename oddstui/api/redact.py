"""Keep the API key out of anything a person or a log might see, and make network text plain."""

from __future__ import annotations

import logging
import re

REDACTED = "***"
_KEY_PARAM = re.compile(r"(?i)(api_?key=)[^&\s#'\"]*")
# C0/C1 control characters (escape sequences start with ESC) and the Unicode bidi overrides.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def redact_url(url: str) -> str:
    """`...?apiKey=secret&x=1` becomes `...?apiKey=***&x=1`."""
    return _KEY_PARAM.sub(lambda match: match.group(1) + REDACTED, url)


def redact(text: str, *secrets: str | None) -> str:
    """Redact `apiKey=` parameters and every literal occurrence of the given secrets."""
    text = redact_url(text)
    for secret in secrets:
        if secret:
            text = text.replace(secret, REDACTED)
    return text


def plain(text: str, limit: int = 300) -> str:
    """Network text made safe for one line of a terminal: no control characters, bounded."""
    text = _CONTROL.sub(" ", text).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


class RedactingFilter(logging.Filter):
    """Rewrites log records so that `apiKey=` values never reach a handler."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact_url(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


_FILTER = RedactingFilter()
# httpx logs every request URL (with the key) at INFO; httpcore's loggers are not children of
# a single parent that filters would cover, so each one is named.
HTTP_LOGGERS = (
    "httpx",
    "httpcore",
    "httpcore.connection",
    "httpcore.http11",
    "httpcore.http2",
    "httpcore.proxy",
)


def install_log_redaction() -> None:
    """Attach the redacting filter to the HTTP libraries' loggers (idempotent)."""
    for name in HTTP_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
