"""The alert rules are pure and live in `oddstui.book` (a backtest runs them too): the rules and
the state they are judged on in `alert_rules`, what the desk tells in `alert_watch`."""

from oddstui.book.alert_rules import ENDED, ArbitrageRule, PriceRule, SteamRule
from oddstui.book.alert_watch import (
    Alert,
    AlertRules,
    Throttle,
    TraderRule,
    parse_threshold,
)

__all__ = [
    "ENDED",
    "Alert",
    "AlertRules",
    "ArbitrageRule",
    "PriceRule",
    "SteamRule",
    "Throttle",
    "TraderRule",
    "parse_threshold",
]
