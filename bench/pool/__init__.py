"""Quick-pairing benchmark: players press "Play now" at once on a site it starts."""
