"""The one door through which every match changes.

Views, the API, websocket consumers and Bea all call in here. Every change locks the match
row, checks the version the request was made for, asks the engine (or the rules of live
play) whether it may happen, stores it, and announces it (``games.events``): the
announcement reaches the subscribers only after the transaction commits, carrying ids and
versions, never a card. Reading a match is ``games.readers``; its cached state
``games.state_cache``; who is at a table ``games.live.presence``.

By what it changes: ``moves`` (an action, and the deal of a hand whose seeds are overdue),
``matches`` (making one), ``endings`` (resigned, abandoned, won on time), ``offers`` (rematch,
restart, pass and play's new round); the checks every change passes are ``checks``, and its
refusals ``refusals``. Callers use the names below.
"""

from __future__ import annotations

from .checks import CURRENT
from .endings import abandon, claim_win, resign, set_aside
from .matches import (
    TARGETS,
    SeatSpec,
    create_match,
    lock_players,
    ruleset,
    running_bea_match,
    start_bea_match,
)
from .moves import Moving, deal_overdue, moving, submit
from .offers import answer_offer, make_offer, restart_local
from .refusals import (
    AlreadyPlaying,
    BeaMatchRunning,
    IllegalMove,
    MatchClosed,
    NotConnected,
    NotYourSeat,
    StaleVersion,
)

__all__ = [
    "CURRENT",
    "TARGETS",
    "AlreadyPlaying",
    "BeaMatchRunning",
    "IllegalMove",
    "MatchClosed",
    "NotConnected",
    "NotYourSeat",
    "SeatSpec",
    "StaleVersion",
    "abandon",
    "answer_offer",
    "claim_win",
    "create_match",
    "deal_overdue",
    "lock_players",
    "make_offer",
    "moving",
    "Moving",
    "resign",
    "restart_local",
    "ruleset",
    "running_bea_match",
    "set_aside",
    "start_bea_match",
    "submit",
]
