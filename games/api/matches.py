"""The matches' part of the JSON API: list mine, read my view, move, resign, offers, Bea.

Every change goes through ``games.services`` (the one door) with the version the client's move
was made for; what a client reads is ``readers.view_for`` its seat (or as a watcher), as every
other reader does. Against Bea, her replies follow the human's move on the server, paced as at
the table: a client hears of each on its event stream. Reading changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from django.http import HttpRequest
from ninja import Query, Router, Status

from games import access, lookups, services
from games.api import asker as api_asker
from games.api.match_schemas import (
    ActionIn,
    Answered,
    BeaIn,
    HistoryPage,
    HistoryQuery,
    MatchDetail,
    MatchQuery,
    MatchSummary,
    OfferIn,
    OfferOut,
    TurnRow,
    VersionIn,
)
from games.api.replays import ReplayOut
from games.bea import limits as starts
from games.engine import legal_actions
from games.live import correspondence, presence
from games.models import Match, Seat, seats_with_players
from games.readers import view_for
from games.records import matches as history
from games.records import replays
from games.review import budget
from games.review import context as review_context
from games.state_cache import load_state
from games.table import add_ons as extras
from ginsite.lib.apikit import (
    ERRORS,
    ApiError,
    Error,
    answer_keeper,
    user_of,
)
from ginsite.lib.numbers import PathInt
from ginsite.lib.refusals import NotFound, Refused

router = Router()

# --- Helpers ------------------------------------------------------------------------------------


def _acting(user: Any, public_id: str) -> tuple[Match, int]:
    """The match and the seat of a player acting on it (an offer, a resignation, a claim): a
    request that is also its player being here."""
    asker, seat = api_asker.player(user, public_id)
    presence.seat_active(asker.match, seat)
    return asker.match, seat


def _summary(match: Match, seat: int | None) -> dict[str, Any]:
    seats = sorted(match.seats.all(), key=lambda s: s.number)
    state = load_state(match) if match.is_active else None
    # Your turn: your move, or (the hand waits for it) your seed for the deal.
    your_turn = (
        state is not None
        and seat is not None
        and (state.to_act == seat or {"type": "seed"} in legal_actions(state, seat))
    )
    return {
        "id": match.public_id,
        "kind": match.kind,
        "status": match.status,
        "seat": seat,
        "seats": [
            {
                "seat": s.number,
                "kind": s.kind,
                "username": s.user.get_username() if s.user is not None else None,
                "display_name": s.display_name,
                "bea_level": s.bea_level or None,
            }
            for s in seats
        ],
        "version": match.version,
        "scores": list(match.scores or [0, 0]),
        "your_turn": your_turn,
        "winner_seat": match.winner_seat,
        "rules": match.rules,
        "days_per_move": match.days_per_move,
        "created_at": match.created_at,
        "updated_at": match.updated_at,
        "finished_at": match.finished_at,
        "previous": match.previous.public_id if match.previous_id and match.previous else None,
        "rating": None,
        "arena": None,
        **extras.fields_for(match),
    }


def _detail(match: Match, seat: int | None) -> dict[str, Any]:
    """The answer about ``match``, which holds its seats with their players: as the door read
    them (``access.find``), or as ``_with_players`` reads them after a change."""
    view = view_for(match, seat)
    live = view.pop("live", None)
    return {**_summary(match, seat), "view": view, "live": live}


def _with_players(match: Match) -> Match:
    """A match made without its seats (``services.start_bea_match``) or found without their
    names (``access.held_seat``): its seats and their names."""
    lookups.prefetch_players(match)
    return match


def _offer_json(offer: Any) -> dict[str, Any]:
    return {
        "id": offer.pk,
        "kind": offer.kind,
        "from_seat": offer.from_seat,
        "status": offer.status,
        "result": offer.result.public_id if offer.result_id and offer.result else None,
    }


# --- Matches ------------------------------------------------------------------------------------


@router.get("/matches", response={200: list[MatchSummary], ERRORS: Error}, tags=["matches"])
def list_matches(request: HttpRequest, query: Query[MatchQuery]) -> list[dict[str, Any]]:
    """Your matches, most recently changed first."""
    user = user_of(request)
    matches = Match.objects.filter(seats__user=user, seats__kind=Seat.Kind.PLAYER).prefetch_related(
        "seats__user__profile"
    )
    if query.status == "active":
        matches = matches.filter(status=Match.Status.ACTIVE)
    elif query.status == "finished":
        matches = matches.exclude(status=Match.Status.ACTIVE)
    out = []
    for match in matches.distinct().order_by("-updated_at")[: query.limit]:
        out.append(_summary(match, access.seat_of(match, user)))
    return out


@router.get("/me/matches", response={200: HistoryPage, ERRORS: Error}, tags=["matches"])
def my_match_history(request: HttpRequest, query: Query[HistoryQuery]) -> dict[str, Any]:
    """Your finished and running matches, newest first, a page at a time: the list your
    profile page shows (opponent, rules, score, result, date). A page past the last gives the
    last page."""
    page, rows = history.page_of(user_of(request), query.page, query.per_page)
    return {
        "count": page.paginator.count,
        "page": page.number,
        "pages": page.paginator.num_pages,
        "next": page.next_page_number() if page.has_next() else None,
        "previous": page.previous_page_number() if page.has_previous() else None,
        "results": [row.as_json() for row in rows],
    }


@router.get("/me/your-turn", response={200: list[TurnRow], ERRORS: Error}, tags=["matches"])
def your_turn(request: HttpRequest) -> list[dict[str, Any]]:
    """Your correspondence matches where it is your move, or where the hand waits for your
    seed for the deal (`waiting_for`), least time left first (in your language:
    `Accept-Language` or your profile's). Between hands nobody is on the move."""
    return [turn.as_json() for turn in correspondence.your_turn(user_of(request))]


@router.get("/lobby/matches", response={200: list[MatchSummary], ERRORS: Error}, tags=["matches"])
def lobby_matches(request: HttpRequest) -> list[dict[str, Any]]:
    """Lobby matches in progress, which anyone signed in may watch."""
    user = user_of(request)
    matches = (
        Match.objects.filter(kind=Match.Kind.LOBBY, status=Match.Status.ACTIVE)
        .exclude(seats__user_id__in=access.kept_apart(user.pk))
        .prefetch_related(seats_with_players())
        .order_by("-updated_at")[:100]
    )
    return [_summary(m, access.seat_of(m, user)) for m in matches]


@router.post("/matches/bea", response={201: MatchDetail, ERRORS: Error}, tags=["bea"])
def start_bea(request: HttpRequest, body: BeaIn) -> Status:
    """Start a match against Bea, the computer opponent (you play first). One at a time:
    with a match against her still running, say ``replace`` to abandon it (it counts as lost)."""
    user = user_of(request)
    try:
        match = services.start_bea_match(
            user,
            body.preset,
            body.target,
            body.level,
            replace_running=body.replace,
            admit=starts.admit(f"user:{user.pk}", None),
        )
    except services.BeaMatchRunning as running:
        # The API's words for it: a client asks again with ``replace``, not with a button.
        raise services.BeaMatchRunning(
            running.running,
            f"Your match {running.running.public_id} against Bea is still running: finish "
            "it, or start again with replace set to abandon it.",
        ) from None
    except starts.TooManyMatches:
        raise  # 429 with Retry-After, as the service says
    except Refused as refused:
        # Rules the body names that the service turns down (a preset, a target, a level):
        # a malformed body, the API's own 400.
        raise ApiError(400, "invalid_request", refused.message) from None
    return Status(201, _detail(_with_players(match), 0))


@router.get("/matches/{match_id}", response={200: MatchDetail, ERRORS: Error}, tags=["matches"])
def get_match(request: HttpRequest, match_id: str) -> dict[str, Any]:
    """Your view of a match: your seat's ``player_view``, or the spectator view when you watch
    a lobby match you do not play in."""
    asker = api_asker.reader(user_of(request), match_id)
    if asker.seat is not None:
        # Reading the match is its player being here (an API client opens no table socket):
        # the win cannot be claimed against a player who keeps reading (issue 28).
        presence.seat_active(asker.match, asker.seat)
    return _detail(asker.match, asker.seat)


@router.get(
    "/matches/{match_id}/hands/{hand_number}/replay",
    response={200: ReplayOut, ERRORS: Error},
    tags=["matches"],
)
def hand_replay(request: HttpRequest, match_id: str, hand_number: PathInt) -> dict[str, Any]:
    """A finished hand, move by move: both hands at every step, Bea's notes, the result, and
    her review (`review`: what each decision cost; docs/review.md says for whom). For
    the players and anyone who may watch the match; a hand still in play is 404, like one that
    does not exist."""
    user = user_of(request)
    asker = api_asker.reader(user, match_id)
    try:
        replay = replays.replay_of(asker.match, hand_number)
    except replays.NoSuchHand:
        raise NotFound("There is no finished hand of that number in this match.") from None
    review = review_context.for_hand(replay, asker, budget.reader_of(request, user))
    review.pop("match", None)
    review.pop("rows", None)
    return {**replays.as_json(replay), "review": review}


@router.post(
    "/matches/{match_id}/actions", response={200: MatchDetail, ERRORS: Error}, tags=["matches"]
)
def post_action(request: HttpRequest, match_id: str, body: ActionIn) -> dict[str, Any]:
    """Make a move (one of the view's ``legal_actions``) on the ``version`` it was chosen on.
    Against Bea, her reply follows on the server; your event stream hears of each action."""
    # With an Idempotency-Key the key's answer is kept inside the move's transaction.
    return move(user_of(request), match_id, body, answer_keeper(request))


def move(
    user: Any,
    match_id: str,
    body: ActionIn,
    keep: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """``user``'s move in the match, as ``post_action`` answers it: the one door of a move,
    whether it came as an HTTP POST or over the event socket (``lobby.events.socket_commands``).

    The answer is rendered inside the move's transaction and handed to ``keep`` there, so
    that what ``keep`` stores of it (an idempotency key's record) commits with the move."""
    action = body.action.model_dump(by_alias=True, exclude_none=True)
    if body.seed is not None and "seed" not in action:
        action["seed"] = body.seed
    # The hot path: the mover's seat found with the match under the lock, by their account.
    if user is not None and user.is_authenticated:
        with services.moving(match_id) as move:
            seat = None if move.match is None else access.seat_of_account(move.match, user.pk)
            if seat is not None:
                return _made(move, seat, action, body.version, keep)
    asker, seat = api_asker.player(user, match_id)  # the refusal: 404, or 403 for a watcher
    with services.moving(asker.match.public_id) as move:
        return _made(move, seat, action, body.version, keep)


def _made(
    move: services.Moving,
    seat: int,
    action: dict[str, Any],
    version: int,
    keep: Callable[[dict[str, Any]], None] | None,
) -> dict[str, Any]:
    """The move made, and its answer rendered and kept in the move's transaction."""
    move.make(seat, action, version)
    assert move.match is not None
    answer = _detail(move.match, seat)
    if keep is not None:
        keep(answer)
    return answer


@router.post(
    "/matches/{match_id}/resign", response={200: MatchDetail, ERRORS: Error}, tags=["matches"]
)
def resign(request: HttpRequest, match_id: str, body: VersionIn) -> dict[str, Any]:
    """Give up the match, as of the ``version`` you saw; your opponent wins."""
    match, seat = _acting(user_of(request), match_id)
    services.resign(match, seat, body.version)
    return _detail(match, seat)


@router.post(
    "/matches/{match_id}/claim", response={200: MatchDetail, ERRORS: Error}, tags=["matches"]
)
def claim(request: HttpRequest, match_id: str, body: VersionIn) -> dict[str, Any]:
    """Claim the win when your opponent has been away for over a minute in their turn."""
    match, seat = _acting(user_of(request), match_id)
    services.claim_win(match, seat, body.version)
    return _detail(match, seat)


@router.post("/matches/{match_id}/offers", response={201: OfferOut, ERRORS: Error}, tags=["offers"])
def make_offer(request: HttpRequest, match_id: str, body: OfferIn) -> Status:
    """Offer a rematch (once the match is over) or a restart (during it) to the other player."""
    match, seat = _acting(user_of(request), match_id)
    offer = services.make_offer(match, seat, body.kind, body.version)
    return Status(201, _offer_json(offer))


@router.post(
    "/matches/{match_id}/offers/{offer_id}/{answer}",
    response={200: Answered, ERRORS: Error},
    tags=["offers"],
)
def answer_offer(
    request: HttpRequest,
    match_id: str,
    offer_id: PathInt,
    answer: Literal["accept", "decline", "withdraw"],
    body: VersionIn,
) -> dict[str, Any]:
    """Accept or decline the other player's offer, or withdraw your own. Accepting starts the
    new match (``next``)."""
    match, seat = _acting(user_of(request), match_id)
    new = services.answer_offer(match, seat, offer_id, answer, body.version)
    offer = match.offers.select_related("result").filter(pk=offer_id).first()
    if offer is None:
        raise NotFound("There is no such offer.")
    return {"offer": _offer_json(offer), "next": new.public_id if new is not None else None}
