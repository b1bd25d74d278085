"""Play between two people: who is at the table, the clocks (live and correspondence),
quick messages."""
