"""What was played: a player's matches, their record, and the replays of finished hands."""
