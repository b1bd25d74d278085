"""The matches' part of the JSON API: a player's matches, moves, quick messages and replays."""
