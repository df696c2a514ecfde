"""Keep the API key out of anything a person or a log might see, and make network text plain."""

from __future__ import annotations

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
