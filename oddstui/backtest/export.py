"""`oddstui export PATH --parquet DIR`: a recording's price ticks as one Parquet file.

One row per price received: every side of every line of every market in each odds message (and
in each REST snapshot, with no seq). Columns: see `SCHEMA` and the README. A `deleted` or
`no_markets` message carries no prices and makes no row.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from oddstui.api.messages import OddsMessage, iter_frame
from oddstui.api.models import MarketQuote, parse_event, parse_odds_record
from oddstui.recording.records import FeedMessage, Record, Snapshot

TICKS_FILE = "ticks.parquet"
_BATCH_ROWS = 65_536
COLUMNS = (
    "time",
    "seq",
    "event_id",
    "sport",
    "league",
    "bookmaker",
    "market",
    "line",
    "label",
    "side",
    "price",
    "updated_at",
)


class ParquetMissing(Exception):
    """pyarrow is not installed."""


def schema() -> Any:
    import pyarrow as pa

    stamp = pa.timestamp("us", tz="UTC")
    return pa.schema(
        [
            ("time", stamp),  # when the recorder received it
            ("seq", pa.int64()),  # the feed's seq; null for a REST snapshot
            ("event_id", pa.int64()),
            ("sport", pa.string()),  # slugs; null when the recording has no header for it
            ("league", pa.string()),
            ("bookmaker", pa.string()),
            ("market", pa.string()),
            ("line", pa.float64()),  # hdp: handicap or total; null for a market without lines
            ("label", pa.string()),  # a player's name on props; else null
            ("side", pa.string()),
            ("price", pa.float64()),  # decimal odds as received
            ("updated_at", stamp),  # the bookmaker's updatedAt of the market; may be null
        ]
    )


def export_parquet(records: Iterable[Record], folder: Path) -> tuple[Path, int]:
    """Write the ticks; returns the file written and its row count."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ParquetMissing(
            "the Parquet export needs pyarrow: pip install 'oddstui[parquet]'"
        ) from None
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / TICKS_FILE
    partial = folder / (TICKS_FILE + ".partial")
    shape = schema()
    rows = 0
    try:
        with pq.ParquetWriter(partial, shape, compression="zstd") as writer:
            for batch in _batches(tick_rows(records)):
                writer.write_table(pa.Table.from_pydict(batch, schema=shape))
                rows += len(batch["time"])
    except BaseException:  # a bad recording found half way leaves no half-written file
        partial.unlink(missing_ok=True)
        raise
    partial.replace(target)
    return target, rows


Tick = tuple[Any, ...]


def tick_rows(records: Iterable[Record]) -> Iterator[Tick]:
    """The rows, in the order of `COLUMNS`."""
    leagues: dict[int, tuple[str | None, str | None]] = {}
    for record in records:
        if isinstance(record, Snapshot):
            when = _utc(record.time)
            for raw_event in record.events:
                try:
                    header = parse_event(raw_event)
                except ValueError:
                    continue
                leagues[header.id] = (header.sport.slug, header.league.slug)
            for raw in record.odds:
                try:
                    odds = parse_odds_record(raw)
                except ValueError:
                    continue
                event = odds.event
                leagues[event.id] = (event.sport.slug, event.league.slug)
                for bookmaker, quotes in odds.bookmakers.items():
                    yield from _quote_rows(
                        when, None, event.id, leagues[event.id], bookmaker, quotes
                    )
        elif isinstance(record, FeedMessage):
            for message in iter_frame(record.text or orjson.dumps(record.message), record.time):
                if type(message) is OddsMessage and message.markets:
                    sport = leagues.get(message.event_id, (None, None))
                    yield from _quote_rows(
                        _utc(record.time),
                        message.seq,
                        message.event_id,
                        sport,
                        message.bookie,
                        message.markets,
                    )


def _quote_rows(
    when: datetime,
    seq: int | None,
    event_id: int,
    sport: tuple[str | None, str | None],
    bookmaker: str,
    quotes: Iterable[MarketQuote],
) -> Iterator[Tick]:
    for quote in quotes:
        for line in quote.lines:
            for side, price in line.prices.items():
                yield (
                    when,
                    seq,
                    event_id,
                    sport[0],
                    sport[1],
                    bookmaker,
                    quote.name,
                    line.hdp,
                    line.label,
                    side,
                    price,
                    quote.updated_at,
                )


def _batches(rows: Iterable[Tick]) -> Iterator[dict[str, list[Any]]]:
    batch: list[Tick] = []
    for row in rows:
        batch.append(row)
        if len(batch) == _BATCH_ROWS:
            yield _columns(batch)
            batch = []
    if batch:
        yield _columns(batch)


def _columns(batch: list[Tick]) -> dict[str, list[Any]]:
    return {name: [row[i] for row in batch] for i, name in enumerate(COLUMNS)}


def _utc(unix: float) -> datetime:
    return datetime.fromtimestamp(unix, UTC)
