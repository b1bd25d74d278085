"""Bea while you wait: "Play now" with nobody else in the pool (docs/playnow.md).

After ``PLAYNOW_BEA_AFTER`` seconds in the pool (a countdown on the player's "Play now" tile)
the player is offered a casual match against Bea at a level matched to their rating. They stay
in the pool while they play her: when the pool pairs them with a person, their pages are told
at once (``notice``), and they switch when they like, at the end of the hand as a rule; the
match against Bea then ends counting for nobody. The person paired with them waits under the
lobby's ordinary rule, no longer: once the player who is finishing a hand against Bea has been
away from their turn for ``games.live.connection.CLAIM_AFTER_SECONDS``, the person may claim the
win.
"""
