"""Intents that travel up from screens to the app."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from oddstui.betlog.bets import Bet


@dataclass
class WatchToggled(Message):
    """The trader starred or unstarred an event."""

    event_id: int


@dataclass
class EventChosen(Message):
    """The trader opened an event."""

    event_id: int


@dataclass
class AlertRulesWanted(Message):
    """The trader asked to set the alert rules of a starred event."""

    event_id: int


@dataclass
class BetTaken(Message):
    """The trader accepted a stake ticket: the bet to log."""

    bet: Bet
