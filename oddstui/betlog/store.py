"""The bet log in SQLite (`bets.sqlite` in the data folder).

Nothing is ever lost: a database another process holds locked makes `record` keep the bet in
`bets.pending.jsonl` beside it (written first, replayed at the next write that gets through), and
a file that is not a bet log is set aside as `<name>.bak` and a new log started. Each failure is
one line (`BetLogError`), never a traceback.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from oddstui import config
from oddstui.betlog.bets import Bet, BetLeg

#: Seconds to wait for another writer before calling the log locked.
LOCK_WAIT = 0.5

SCHEMA = """
CREATE TABLE IF NOT EXISTS bets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id INTEGER NOT NULL,
    placed_at REAL NOT NULL,
    board TEXT NOT NULL,
    event_name TEXT NOT NULL,
    sport TEXT NOT NULL DEFAULT '',
    league TEXT NOT NULL DEFAULT '',
    settled_at REAL,
    final_score TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS legs (
    bet_id INTEGER NOT NULL REFERENCES bets(id),
    leg INTEGER NOT NULL,
    market TEXT NOT NULL,
    hdp REAL,
    label TEXT NOT NULL DEFAULT '',
    side TEXT NOT NULL,
    bookmaker TEXT NOT NULL,
    price REAL NOT NULL,
    commission REAL NOT NULL DEFAULT 0,
    stake REAL NOT NULL,
    result REAL,
    settled_by TEXT NOT NULL DEFAULT '',
    close_price REAL,
    close_fair REAL,
    sharp_book TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (bet_id, leg)
);
"""
LEG_FIELDS = (
    "market", "hdp", "label", "side", "bookmaker", "price", "commission", "stake", "result",
    "settled_by", "close_price", "close_fair", "sharp_book",
)  # fmt: skip


class BetLogError(Exception):
    """One line saying what went wrong with the bet log and where the bets are."""


def bets_path() -> Path:
    return config.data_dir() / "bets.sqlite"


class BetLog:
    """The bets in one SQLite file; every call opens, does its work and closes, so another desk
    (or `oddstui bets`) may read it at the same time."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or bets_path()
        self.pending_path = self.path.with_name(self.path.stem + ".pending.jsonl")
        #: What was set aside when the file was not a bet log (one line), else None.
        self.warning: str | None = None

    # ------------------------------------------------------------------ connection

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            return self._open()
        except sqlite3.DatabaseError as error:
            if _locked(error):
                raise BetLogError(f"the bet log {self.path} is locked by another program") from None
            backup = config.quarantine(self.path)
            self.warning = (
                f"{self.path} was not a bet log ({error}): set aside as {backup.name}, "
                "a new one started"
            )
            return self._open()

    def _open(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, timeout=LOCK_WAIT, isolation_level=None)
        try:
            connection.executescript(SCHEMA)
        except sqlite3.DatabaseError:
            connection.close()
            raise
        return connection

    # ------------------------------------------------------------------ writing

    def record(self, bet: Bet) -> Bet:
        """Store a new bet and return it with its id. When the log cannot take it, the bet is
        kept in the pending file and `BetLogError` says so (the bet is not lost)."""
        try:
            stored = self._write_pending_then(bet)
            assert stored is not None
        except (BetLogError, sqlite3.Error, OSError) as error:
            self._keep_pending(bet)
            reason = error if isinstance(error, BetLogError) else f"{self.path}: {error}"
            raise BetLogError(
                f"{reason}; the bet is kept in {self.pending_path.name} and logged later"
            ) from None
        return stored

    def _write_pending_then(self, bet: Bet | None) -> Bet | None:
        connection = self._connect()
        try:
            connection.execute("BEGIN IMMEDIATE")
            for waiting in self._read_pending():
                _insert(connection, waiting)
            stored = _insert(connection, bet) if bet is not None else None
            connection.execute("COMMIT")
        except sqlite3.Error as error:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            if _locked(error):
                raise BetLogError(f"the bet log {self.path} is locked by another program") from None
            raise
        finally:
            connection.close()
        self.pending_path.unlink(missing_ok=True)
        return stored

    def _keep_pending(self, bet: Bet) -> None:
        line = json.dumps(_bet_json(bet), ensure_ascii=False)
        with self.pending_path.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")

    def _read_pending(self) -> list[Bet]:
        try:
            lines = self.pending_path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []
        return [_bet_from_json(json.loads(line)) for line in lines if line.strip()]

    def update(self, bet: Bet) -> None:
        """Write back a bet's settlement (results, closing prices, when and the final score)."""
        try:
            connection = self._connect()
        except sqlite3.Error as error:
            raise BetLogError(f"{self.path}: {error}") from None
        try:
            with connection:
                connection.execute(
                    "UPDATE bets SET settled_at = ?, final_score = ? WHERE id = ?",
                    (bet.settled_at, bet.final_score, bet.id),
                )
                for number, leg in enumerate(bet.legs):
                    values = [getattr(leg, name) for name in LEG_FIELDS]
                    assignments = ", ".join(f"{name} = ?" for name in LEG_FIELDS)
                    connection.execute(
                        f"UPDATE legs SET {assignments} WHERE bet_id = ? AND leg = ?",
                        (*values, bet.id, number),
                    )
        except sqlite3.Error as error:
            if _locked(error):
                raise BetLogError(f"the bet log {self.path} is locked by another program") from None
            raise BetLogError(f"{self.path}: {error}") from None
        finally:
            connection.close()

    # ------------------------------------------------------------------ reading

    def bets(self) -> list[Bet]:
        """Every bet, newest first, including any still pending (id 0) when the log is locked."""
        pending: list[Bet] = []
        try:
            pending = self._read_pending()
            if pending:
                self._write_pending_then(None)
                pending = []
            connection = self._connect()
        except (sqlite3.Error, OSError) as error:
            raise BetLogError(f"{self.path}: {error}") from None
        try:
            rows = connection.execute("SELECT * FROM bets ORDER BY id DESC").fetchall()
            names = [column[0] for column in connection.execute("SELECT * FROM bets").description]
            legs = connection.execute(
                f"SELECT bet_id, {', '.join(LEG_FIELDS)} FROM legs ORDER BY bet_id, leg"
            ).fetchall()
        except sqlite3.Error as error:
            if _locked(error):
                raise BetLogError(f"the bet log {self.path} is locked by another program") from None
            raise BetLogError(f"{self.path}: {error}") from None
        finally:
            connection.close()
        by_bet: dict[int, list[BetLeg]] = {}
        for bet_id, *values in legs:
            by_bet.setdefault(bet_id, []).append(
                BetLeg(**dict(zip(LEG_FIELDS, values, strict=True)))
            )
        found = []
        for row in rows:
            fields = dict(zip(names, row, strict=True))
            found.append(Bet(legs=tuple(by_bet.get(fields["id"], ())), **fields))
        return pending + found


def _locked(error: sqlite3.Error) -> bool:
    return "locked" in str(error) or "busy" in str(error)


def _insert(connection: sqlite3.Connection, bet: Bet) -> Bet:
    cursor = connection.execute(
        "INSERT INTO bets (event_id, placed_at, board, event_name, sport, league, settled_at,"
        " final_score) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            bet.event_id, bet.placed_at, bet.board, bet.event_name, bet.sport, bet.league,
            bet.settled_at, bet.final_score,
        ),
    )  # fmt: skip
    bet_id = int(cursor.lastrowid or 0)
    for number, leg in enumerate(bet.legs):
        values = [getattr(leg, name) for name in LEG_FIELDS]
        connection.execute(
            f"INSERT INTO legs (bet_id, leg, {', '.join(LEG_FIELDS)})"
            f" VALUES (?, ?, {', '.join('?' for _ in LEG_FIELDS)})",
            (bet_id, number, *values),
        )
    return replace(bet, id=bet_id)


def _bet_json(bet: Bet) -> dict[str, Any]:
    data = asdict(bet)
    data["legs"] = [asdict(leg) for leg in bet.legs]
    return data


def _bet_from_json(data: dict[str, Any]) -> Bet:
    legs = tuple(BetLeg(**leg) for leg in data.pop("legs"))
    data["id"] = 0
    return Bet(legs=legs, **data)
