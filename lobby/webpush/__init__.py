"""Web Push: the devices a player turned notifications on for, what they hear of, and
the sending."""
