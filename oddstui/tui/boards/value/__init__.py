"""The value bets board: its rows and screen."""
