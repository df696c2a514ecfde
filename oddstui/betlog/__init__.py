"""The bet log: the bets the trader took at the ticket, kept in SQLite in the data folder.

Below `tui` (no textual here): the desk records and settles through it, `oddstui bets` reads it.
The settlement maths is `oddstui.book.settlement`.
"""
