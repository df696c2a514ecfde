"""The gate's rules on their own: the one-time token, the cookie, the same Origin, loopback."""

from __future__ import annotations

import pytest

from oddstui.server.accounts import Account, Accounts
from oddstui.web.gate import Gate, same_origin
from oddstui.web.options import is_loopback


def test_the_token_is_redeemed_once_for_a_cookie_the_gate_then_admits() -> None:
    gate = Gate("the-token")
    assert gate.redeem("wrong") is None and gate.redeem(None) is None
    cookie = gate.redeem("the-token")
    assert cookie and cookie != "the-token"
    assert gate.admits(cookie)
    assert gate.redeem("the-token") is None  # spent
    assert not gate.admits("") and not gate.admits(None) and not gate.admits(cookie + "x")


@pytest.mark.parametrize(
    ("origin", "host", "same"),
    [
        ("http://127.0.0.1:8767", "127.0.0.1:8767", True),
        ("https://desk.example.com", "desk.example.com", True),  # TLS proxy passing Host
        ("http://127.0.0.1:8768", "127.0.0.1:8767", False),  # another port
        ("http://evil.example", "127.0.0.1:8767", False),
        ("null", "127.0.0.1:8767", False),  # a sandboxed frame or a file
        ("file://", "127.0.0.1:8767", False),
        (None, "127.0.0.1:8767", False),
        ("http://127.0.0.1:8767", None, False),
    ],
)
def test_same_origin(origin: str | None, host: str | None, same: bool) -> None:
    headers = {k: v for k, v in (("origin", origin), ("host", host)) if v is not None}
    assert same_origin(headers) is same


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.5", False),
        ("desk.example.com", False),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_a_key_added_while_serving_gets_the_default_selection_and_goes_away() -> None:
    accounts = Accounts([])
    early = Account(key="k-early", feed=True)
    accounts.add(early)
    assert early.bookmakers is None  # no default known before `resolve`
    accounts.resolve(["A", "B", "C"], ["A", "B"])
    assert early.selection == ["A", "B"]
    tab = Account(key="web-tab", feed=True)
    accounts.add(tab)
    assert accounts.get("web-tab") is tab and tab.selection == ["A", "B"]
    accounts.remove("web-tab")
    accounts.remove("web-tab")  # twice is fine: a tab ends once, but shutdown ends them all too
    assert accounts.get("web-tab") is None and len(accounts) == 1
