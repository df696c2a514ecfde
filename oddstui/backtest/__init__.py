"""`oddstui backtest` and `oddstui export`: the desk's own book and maths over a recording."""
