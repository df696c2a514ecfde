"""The alert rules are pure and live in `oddstui.book.alert_rules` (a backtest runs them too)."""

from oddstui.book.alert_rules import (
    ENDED,
    Alert,
    AlertRules,
    ArbitrageRule,
    PriceRule,
    Throttle,
    parse_threshold,
)

__all__ = [
    "ENDED",
    "Alert",
    "AlertRules",
    "ArbitrageRule",
    "PriceRule",
    "Throttle",
    "parse_threshold",
]
