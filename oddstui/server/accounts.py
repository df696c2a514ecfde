"""Accounts: keys, plans, the feed add-on, hourly limits and each account's bookmaker selection.

The accounts file is TOML (see SERVICE.md). Problems are reported as `AccountsError` with one
line that never contains a key, since keys are secrets.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oddstui.server.errors import BadRequest, Forbidden

PAID, FREE = "paid", "free"
DEFAULT_REQUESTS_PER_HOUR = 5000
#: A free plan: 100 requests an hour (unless the account says otherwise), two bookmakers, no feed.
FREE_REQUESTS_PER_HOUR = 100
FREE_BOOKMAKERS = 2
CLEAR_EVERY = 12 * 3600.0  # the public service lets a key clear its selection once in 12 hours
#: The length of the rate limit's "hour" in seconds; tests shorten it (`hour_seconds`).
HOUR_SECONDS = 3600
DEMO_KEY = "demo"
_FIELDS = {"key", "plan", "feed", "requests_per_hour", "hour_seconds", "bookmakers"}


class AccountsError(Exception):
    """The accounts file cannot be used; the message is one line."""


class TooSoon(BadRequest):
    """A clear of the selection within 12 hours of the last one: a 400."""


class PlanLimit(Forbidden):
    """What the account's plan does not allow (a free plan's third bookmaker): a 403."""


@dataclass(slots=True)
class Account:
    key: str
    plan: str = PAID
    feed: bool = False
    requests_per_hour: int = DEFAULT_REQUESTS_PER_HOUR
    #: The rate limit's window in seconds: an hour, or less to test a desk over a short "hour".
    hour_seconds: int = HOUR_SECONDS
    # the selected bookmakers; None until resolved against the world's default selection
    bookmakers: list[str] | None = field(default=None)
    cleared_at: float | None = field(default=None)  # Unix seconds of the last clear

    def __repr__(self) -> str:  # never show the key
        return f"Account(plan={self.plan!r}, feed={self.feed}, rph={self.requests_per_hour})"

    @property
    def has_feed(self) -> bool:
        """The feed add-on is for paid plans: a free plan's `feed = true` gives no feed."""
        return self.feed and self.plan == PAID

    @property
    def selection(self) -> list[str]:
        return list(self.bookmakers or [])


class Accounts:
    """The accounts of one running service, by key. Selections live as long as the process."""

    def __init__(self, accounts: Iterable[Account]) -> None:
        self._by_key = {account.key: account for account in accounts}
        self._default_selection: list[str] | None = None

    def get(self, key: str | None) -> Account | None:
        return self._by_key.get(key) if key else None

    def __iter__(self):
        return iter(self._by_key.values())

    def __len__(self) -> int:
        return len(self._by_key)

    def resolve(self, known: Iterable[str], default_selection: list[str]) -> None:
        """Give accounts without a selection the default, and check every name is a bookmaker."""
        names = set(known)
        self._default_selection = list(default_selection)
        for number, account in enumerate(self._by_key.values(), start=1):
            if account.bookmakers is None:
                limit = FREE_BOOKMAKERS if account.plan == FREE else None
                account.bookmakers = list(default_selection)[:limit]
                continue
            unknown = [name for name in account.bookmakers if name not in names]
            if unknown:
                raise AccountsError(f"account {number}: unknown bookmakers {', '.join(unknown)}")

    def add(self, account: Account) -> None:
        """A key added while serving (`oddstui web` gives each browser tab one); it gets the
        default selection once `resolve` has run."""
        if account.bookmakers is None and self._default_selection is not None:
            account.bookmakers = list(self._default_selection)
        self._by_key[account.key] = account

    def remove(self, key: str) -> None:
        self._by_key.pop(key, None)

    def select(self, account: Account, names: list[str]) -> list[str]:
        """Replace the selection; a free plan keeps at most two (`PlanLimit` otherwise)."""
        if account.plan == FREE and len(names) > FREE_BOOKMAKERS:
            raise PlanLimit(
                f"bookmakers: a free plan selects at most {FREE_BOOKMAKERS} bookmakers; "
                f"got {len(names)}"
            )
        account.bookmakers = list(names)
        return account.selection

    def clear(self, account: Account, now: float) -> list[str]:
        """Empty the selection: once every 12 hours (`TooSoon`, a 400, otherwise)."""
        last = account.cleared_at
        if last is not None and now - last < CLEAR_EVERY:
            wait = int(CLEAR_EVERY - (now - last)) + 1
            raise TooSoon(
                f"apiKey: the selection can be cleared once every 12 hours; again in {wait} s"
            )
        account.cleared_at = now
        return self.select(account, [])


def demo_accounts() -> Accounts:
    """The accounts when no file is given: one paid `demo` key with the feed."""
    return Accounts([Account(key=DEMO_KEY, plan=PAID, feed=True)])


def load_accounts(path: str | Path) -> Accounts:
    """Read and validate an accounts file; raises `AccountsError` naming the file and problem."""
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise AccountsError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise AccountsError(f"{path}: is a directory, not a file") from None
    except OSError as error:
        raise AccountsError(f"{path}: cannot read it ({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise AccountsError(f"{path}: not valid UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise AccountsError(f"{path}: not valid TOML: {_one_line(str(error))}") from None
    try:
        return Accounts(_accounts_from(data))
    except AccountsError as error:
        raise AccountsError(f"{path}: {error}") from None


def _accounts_from(data: dict[str, Any]) -> list[Account]:
    extra = sorted(set(data) - {"account"})
    if extra:
        raise AccountsError(f"unknown top-level key {extra[0]!r}; expected [[account]] tables")
    tables = data.get("account")
    if not isinstance(tables, list) or not tables:
        raise AccountsError("no accounts; expected one or more [[account]] tables")
    accounts: list[Account] = []
    first_seen: dict[str, int] = {}
    for number, table in enumerate(tables, start=1):
        if not isinstance(table, dict):
            raise AccountsError(f"account {number}: must be a table")
        account = _account_from(number, table)
        if account.key in first_seen:
            raise AccountsError(
                f"account {number}: duplicate key (same as account {first_seen[account.key]})"
            )
        first_seen[account.key] = number
        accounts.append(account)
    return accounts


def _account_from(number: int, table: dict[str, Any]) -> Account:
    where = f"account {number}"
    unknown = sorted(set(table) - _FIELDS)
    if unknown:
        raise AccountsError(f"{where}: unknown field {unknown[0]!r}")
    key = table.get("key")
    if not isinstance(key, str) or not key.strip():
        raise AccountsError(f"{where}: key must be a non-empty string")
    if any(ch.isspace() or not ch.isprintable() for ch in key) or len(key) > 200:
        raise AccountsError(f"{where}: key must be printable, without spaces, at most 200 chars")
    plan = table.get("plan", PAID)
    if plan not in (PAID, FREE):
        raise AccountsError(f'{where}: plan must be "paid" or "free"')
    feed = table.get("feed", False)
    if not isinstance(feed, bool):
        raise AccountsError(f"{where}: feed must be true or false")
    default_rph = FREE_REQUESTS_PER_HOUR if plan == FREE else DEFAULT_REQUESTS_PER_HOUR
    rph = table.get("requests_per_hour", default_rph)
    if isinstance(rph, bool) or not isinstance(rph, int) or not 1 <= rph <= 10_000_000:
        raise AccountsError(f"{where}: requests_per_hour must be an integer from 1 to 10000000")
    hour = table.get("hour_seconds", HOUR_SECONDS)
    if isinstance(hour, bool) or not isinstance(hour, int) or not 1 <= hour <= HOUR_SECONDS:
        raise AccountsError(f"{where}: hour_seconds must be an integer from 1 to {HOUR_SECONDS}")
    books = table.get("bookmakers")
    if books is not None:
        if not isinstance(books, list) or not all(isinstance(b, str) and b for b in books):
            raise AccountsError(f"{where}: bookmakers must be a list of bookmaker names")
        books = list(dict.fromkeys(books))
        if plan == FREE and len(books) > FREE_BOOKMAKERS:
            raise AccountsError(
                f"{where}: a free plan selects at most {FREE_BOOKMAKERS} bookmakers"
            )
    return Account(
        key=key, plan=plan, feed=feed, requests_per_hour=rph, hour_seconds=hour, bookmakers=books
    )


def _one_line(text: str) -> str:
    return " ".join(text.split())
