"""What every screen shares: the board screen base, columns, tables, status bar, footer, help."""
