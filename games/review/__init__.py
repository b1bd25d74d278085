"""Bea's review of finished hands (docs/review.md): what she would have done at each of a
player's decisions and what the difference cost in chances to win the match, marked as
inaccuracies, mistakes and blunders, with an accuracy per hand and per match.

models (the stored judgement of a hand), judgements (judging, storing, who sees what), marks
(the thresholds and the accuracy), budget (the guard on the CPU it costs), words (in the
reader's language), context (what the replay page and the API show). The judging itself is
``games.ai.judge``, pure Python.
"""
