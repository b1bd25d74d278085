"""Bea's judgement of a finished hand, stored once: the play-outs behind it cost CPU, and a hand
that is over never changes."""

from __future__ import annotations

from django.db import models


class HandJudgement(models.Model):
    """Bea's judgement of every decision of the reviewed seats (those not Bea's) in one
    finished hand (``games.review.judgements``). ``decisions`` holds one entry per judged
    decision: the position ``index`` it led to, the ``seat``, the ``kind``, the action
    ``played``, Bea's action ``bea`` and the ``cost`` in points of the chance to win the match.
    ``version`` is the judge's, so a better judge redoes older ones."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    hand_number = models.PositiveIntegerField()
    decisions = models.JSONField(default=list)
    version = models.PositiveSmallIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        constraints = [
            models.UniqueConstraint(fields=["match", "hand_number"], name="one_judgement_per_hand"),
        ]

    def __str__(self) -> str:
        return f"judgement of {self.match_id} hand {self.hand_number}"
