"""The arbitrage board: its rows, cells and screen."""
