"""Playing Bea: her turns in the background, guests' matches, and how many one may start."""
