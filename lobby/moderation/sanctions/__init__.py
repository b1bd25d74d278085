"""What moderators do to a player, and what a player's standing sanctions mean."""
