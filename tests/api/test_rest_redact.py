"""Key redaction and plain network text, as pure functions."""

from __future__ import annotations

import logging

import pytest

from oddstui.api.redact import plain, redact, redact_url


@pytest.mark.parametrize(
    "url, shown",
    [
        ("http://h/v3/odds?apiKey=abc123&eventId=1", "http://h/v3/odds?apiKey=***&eventId=1"),
        ("http://h/v3/ws?eventIds=1&apikey=abc123", "http://h/v3/ws?eventIds=1&apikey=***"),
        ("ws://h/v3/ws?api_key=abc123#x", "ws://h/v3/ws?api_key=***#x"),
        ("no key here", "no key here"),
    ],
)
def test_redact_url(url, shown):
    assert redact_url(url) == shown


def test_redact_removes_literal_secrets_too():
    assert redact("key sk-1 and apiKey=sk-1", "sk-1") == "key *** and apiKey=***"
    assert redact("nothing", None, "") == "nothing"


def test_plain_strips_escapes_and_bounds_length():
    assert plain("\x1b[2J\x1b]0;title\x07red\u202eevil") == "[2J ]0;title red evil"
    assert len(plain("x" * 1000, limit=50)) == 50


def test_http_library_logs_are_redacted(caplog):
    import oddstui.api.rest  # noqa: F401  (installs the filter)

    caplog.set_level(logging.DEBUG)
    logging.getLogger("httpx").info("HTTP Request: GET %s", "http://h/v3/odds?apiKey=sk-secret")
    logging.getLogger("httpcore.http11").debug("send to http://h/?apiKey=sk-secret")
    assert "sk-secret" not in caplog.text
    assert caplog.text.count("apiKey=***") == 2
