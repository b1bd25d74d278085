"""A guided first hand: a lesson on the real table.

A lesson is a match of its own kind (``Match.Kind.LESSON``) against Bea, from a stacked deal and
a chosen seed (``script``), in which both players' moves are scripted: the door applies only the
script's next move (``hooks.admit``), Bea's turns follow it (``script.choose``, her "level"
``lesson``), and the panel above the table says what happened and
what to do next (``panel``), pointing at it the way the Hint does. Its seat is held by the
browser's guest key, signed in or not, and no seat in it is a player's: so a lesson never counts
in statistics, match lists, the lobby or completion, all of which count players' seats
(``matches`` starts, leaves and expires lessons; ``views`` are the pages' doors). It enters the
move path by registration only (``hooks``, in ``games.table.add_ons.kinds``): the door, the readers
and the table know no lesson.
"""
