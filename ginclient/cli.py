"""``python -m ginclient``: the lobby and a match in the terminal, or a bot, over the public API.

    python -m ginclient --server http://127.0.0.1:8000 --token gin_... online
    python -m ginclient ... challenge bob --target 50
    python -m ginclient ... accept            (the newest open challenge to you)
    python -m ginclient ... decline 7 --reason rules --counter-preset classic --counter-target 250
    python -m ginclient ... accept-counter 7  (take the rules your challenge 7 was answered with)
    python -m ginclient ... play MATCH_ID
    python -m ginclient ... bea --level easy  (a match against Bea, played here)
    python -m ginclient ... replay MATCH_ID --hand 2  (a finished hand, move by move)
    python -m ginclient ... verify MATCH_ID   (check each finished hand's shuffle, docs/fairness.md)
    python -m ginclient ... pair --preset standard --target 100 --rated  (quick pairing)
    python -m ginclient ... challenge bob --days 3   (correspondence: 3 days per move)
    python -m ginclient ... turns             (correspondence matches waiting for your move)
    python -m ginclient ... --bot ginclient/bots/random_bot.py:choose --seek --games 3
    python -m ginclient ... --bot ginclient/bots/random_bot.py:choose pair --games 3

    python -m ginclient --server https://gin.example login   (sign in in a browser, once)

The server and token may also come from GIN_SERVER and GIN_TOKEN. Without a token, the one
``login`` kept for the server is used (and renewed when it expires).
"""

from __future__ import annotations

import argparse
import os
import sys
import webbrowser
from collections.abc import Callable
from functools import partial
from typing import Any

from ginclient import login as signin
from ginclient.api import ApiError, Client, move_body, only_seed
from ginclient.board import render_replay
from ginclient.bot import Bot, join_pool, load_choose
from ginclient.terminal import Out, play_match
from ginclient.verify import Verdict, check


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m ginclient", description="Play Gin Rummy in the terminal, or run a bot."
    )
    parser.add_argument("--server", default=os.environ.get("GIN_SERVER", "http://127.0.0.1:8000"))
    parser.add_argument(
        "--token", default=os.environ.get("GIN_TOKEN", ""), help="a token from Settings"
    )
    parser.add_argument("--bot", metavar="FILE.py:FUNCTION", help="play with choose(view)")
    parser.add_argument("--seek", action="store_true", help="bot: post a seek and keep one open")
    parser.add_argument("--bea", metavar="LEVEL", help="bot: play against Bea at this level")
    parser.add_argument("--games", type=int, help="bot: stop after this many matches")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--rated", action="store_true", help="challenge, seek or pair: rated")
    parser.add_argument(
        "--days",
        type=int,
        choices=(1, 3, 7),
        help="challenge, seek or pair: a correspondence match, this many days per move",
    )
    # Also after the command ("challenge bob --target 50").
    rules = argparse.ArgumentParser(add_help=False)
    rules.add_argument("--preset", default=argparse.SUPPRESS)
    rules.add_argument("--target", type=int, default=argparse.SUPPRESS)
    rules.add_argument("--rated", action="store_true", default=argparse.SUPPRESS)
    rules.add_argument("--days", type=int, choices=(1, 3, 7), default=argparse.SUPPRESS)
    commands = parser.add_subparsers(dest="command")
    login = commands.add_parser(
        "login", help="sign in (or sign up) in a browser and keep the token for later commands"
    )
    login.add_argument("--scope", default=signin.SCOPES, help='default: "read play lobby"')
    login.add_argument("--client-id", default=signin.CLIENT_ID)
    login.add_argument("--no-browser", action="store_true", help="only print the address to open")
    commands.add_parser("me", help="who you are, and your statistics")
    commands.add_parser("online", help="who is in the lobby")
    commands.add_parser("challenges", help="challenges to and from you")
    challenge = commands.add_parser("challenge", help="challenge a player", parents=[rules])
    challenge.add_argument("username")
    accept = commands.add_parser("accept", help="accept a challenge (default: the newest)")
    accept.add_argument("id", nargs="?", type=int)
    decline = commands.add_parser("decline", help="decline a challenge")
    decline.add_argument("id", type=int)
    decline.add_argument(
        "--reason", choices=["later", "rules", "target", "not_interested"], default="later"
    )
    decline.add_argument("--counter-preset", help="with --reason rules: the preset you would play")
    decline.add_argument(
        "--counter-target",
        type=int,
        help="with --reason rules or target: the target you would play",
    )
    counter = commands.add_parser(
        "accept-counter", help="take the rules a declined challenge of yours was answered with"
    )
    counter.add_argument("id", type=int, help="your challenge that was declined")
    cancel = commands.add_parser("cancel", help="cancel a challenge you sent")
    cancel.add_argument("id", type=int)
    pair = commands.add_parser(
        "pair", help="wait in the pool for an opponent near your rating, then play", parents=[rules]
    )
    pair.add_argument("--allow-bots", action="store_true", help="bots may be paired with you")
    arena = commands.add_parser(
        "arena", help="an arena's standings (with --bot: join it and play it)"
    )
    arena.add_argument("arena", nargs="?", help="the arena's id (none: list the arenas)")
    commands.add_parser("seeks", help="open seeks in the lobby")
    commands.add_parser("seek", help="post a seek", parents=[rules])
    take = commands.add_parser("take", help="accept a seek")
    take.add_argument("id", type=int)
    commands.add_parser("turns", help="correspondence matches waiting for your move")
    matches = commands.add_parser("matches", help="your matches")
    matches.add_argument("--all", action="store_true", help="finished ones too")
    play = commands.add_parser("play", help="play (or watch) a match here")
    play.add_argument("match")
    bea = commands.add_parser(
        "bea", help="start a match against Bea and play it here", parents=[rules]
    )
    bea.add_argument("--level", default="medium", choices=["easy", "medium", "hard", "expert"])
    replay = commands.add_parser(
        "replay", help="a match's finished hands, move by move, with Bea's notes"
    )
    replay.add_argument("match")
    replay.add_argument("--hand", type=int, help="only this hand (default: every finished one)")
    verify = commands.add_parser(
        "verify", help="check that each finished hand was dealt from what the server committed to"
    )
    verify.add_argument("match")
    verify.add_argument("--hand", type=int, help="only this hand (default: every finished one)")
    return parser


def main(argv: list[str] | None = None, *, out: Callable[[str], None] = print) -> int:
    args = _parser().parse_args(argv)
    if args.command == "login":
        return _login(args, out)
    renew = None
    if not args.token:
        try:
            args.token = signin.current(args.server)
        except ApiError as refused:
            out(f"Error: {refused}")
            return 1
        renew = partial(signin.renew, args.server)
    if not args.token:
        out(
            "Sign in first: python -m ginclient login (or --token gin_... made in Settings, "
            "or set GIN_TOKEN)."
        )
        return 2
    client = Client(args.server, args.token, renew=renew)
    try:
        if args.bot:
            return _run_bot(client, args, out)
        if not args.command:
            out(
                "Say what to do: me, online, challenges, challenge, accept, matches, turns, "
                "play, bea, pair, replay, verify..."
            )
            return 2
        return COMMANDS[args.command](client, args, out)
    except ApiError as refused:
        out(f"Error: {refused}")
        return 1
    except KeyboardInterrupt:
        out("Bye.")
        return 130


def _login(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    try:
        tokens = signin.login(
            args.server,
            client_id=args.client_id,
            scope=args.scope,
            out=out,
            open_browser=None if args.no_browser else webbrowser.open,
        )
    except ApiError as refused:
        out(f"Error: {refused}")
        return 1
    me = Client(args.server, tokens["access_token"]).get("/me")
    out(f"Signed in as {me['username']} ({tokens['scope']}); kept in {signin.store_path()}.")
    return 0


def _run_bot(client: Client, args: argparse.Namespace, out: Callable[[str], None]) -> int:
    try:
        choose = load_choose(args.bot)
    except (ValueError, ImportError, OSError, SyntaxError) as bad:
        out(f"Error: {bad}")
        return 2
    bot = Bot(
        client,
        choose,
        say=out,
        seek=args.seek,
        preset=args.preset,
        target=args.target,
        games=args.games,
    )
    if args.bea:
        bot.against_bea(args.bea)
    elif args.command == "pair":
        bot.pool(rated=args.rated, allow_bots=args.allow_bots)
    elif args.command == "arena" and args.arena:
        bot.arena(args.arena)
    else:
        bot.lobby()
    out(f"Done: {len(bot.finished)} matches.")
    return 0


# --- Commands -------------------------------------------------------------------------------------


def _me(client: Client, args: argparse.Namespace, out: Out) -> int:
    me = client.get("/me")
    stats = me["stats"]
    out(f"{me['display_name']} ({me['username']})")
    out(
        f"{stats['matches_won']}/{stats['matches_played']} matches won, "
        f"{stats['hands_won']} hands, {stats['gins']} gins, {stats['undercuts']} undercuts"
    )
    return 0


def _online(client: Client, args: argparse.Namespace, out: Out) -> int:
    for player in client.get("/players/online"):
        flags = " (you)" if player["me"] else (" (playing)" if player["busy"] else "")
        out(f"{player['username']:20} {player['display_name']}{flags}")
    return 0


def _challenge_line(c: dict[str, Any]) -> str:
    other = c["challenger"] if c["direction"] == "incoming" else c["challenged"]
    arrow = "from" if c["direction"] == "incoming" else "to"
    reason = f" ({c['reason']})" if c.get("reason") else ""
    line = (
        f"#{c['id']} {arrow} {other['display_name']}: {c['preset']} to {c['target']}, "
        + (f"{c['days_per_move']} days per move, " if c.get("days_per_move") else "")
        + ("rated, " if c.get("rated") else "")
        + f"{c['status']}{reason}"
        + (f", match {c['match']}" if c.get("match") else "")
    )
    counter = c.get("counter")
    if counter:
        line += (
            f"; proposed instead: {counter['preset']} to {counter['target']} "
            f"(#{counter['id']}, {counter['status']})"
        )
    return line


def _challenges(client: Client, args: argparse.Namespace, out: Out) -> int:
    found = client.get("/challenges")
    for c in found["incoming"] + found["outgoing"]:
        out(_challenge_line(c))
    if not found["incoming"] and not found["outgoing"]:
        out("No challenges.")
    return 0


def _challenge(client: Client, args: argparse.Namespace, out: Out) -> int:
    made = client.post(
        "/challenges",
        {
            "to": args.username,
            "preset": args.preset,
            "target": args.target,
            "rated": args.rated,
            "days_per_move": args.days,
        },
    )
    out(f"Sent: {_challenge_line(made)}")
    return 0


def _accept(client: Client, args: argparse.Namespace, out: Out) -> int:
    challenge_id = args.id
    if challenge_id is None:
        open_ones = [c for c in client.get("/challenges")["incoming"] if c["status"] == "open"]
        if not open_ones:
            out("No open challenge to you.")
            return 1
        challenge_id = open_ones[0]["id"]
    started = client.post(f"/challenges/{challenge_id}/accept")
    out(f"Match {started['match']} started. Play it: python -m ginclient play {started['match']}")
    return 0


def _decline(client: Client, args: argparse.Namespace, out: Out) -> int:
    body: dict[str, Any] = {"reason": args.reason}
    counter = {"preset": args.counter_preset, "target": args.counter_target}
    if any(value is not None for value in counter.values()):
        body["counter"] = {key: value for key, value in counter.items() if value is not None}
    done = client.post(f"/challenges/{args.id}/decline", body)
    out(_challenge_line(done))
    return 0


def _accept_counter(client: Client, args: argparse.Namespace, out: Out) -> int:
    started = client.post(f"/challenges/{args.id}/accept-counter")
    out(f"Match {started['match']} started. Play it: python -m ginclient play {started['match']}")
    return 0


def _cancel(client: Client, args: argparse.Namespace, out: Out) -> int:
    out(_challenge_line(client.post(f"/challenges/{args.id}/cancel")))
    return 0


def _seeks(client: Client, args: argparse.Namespace, out: Out) -> int:
    seeks = client.get("/seeks")
    for s in seeks:
        mine = " (yours)" if s["mine"] else ""
        days = f", {s['days_per_move']} days per move" if s.get("days_per_move") else ""
        rules = f"{s['preset']} to {s['target']}{days}"
        out(f"#{s['id']} {s['poster']['display_name']}: {rules}{mine}")
    if not seeks:
        out("No open seeks.")
    return 0


def _seek(client: Client, args: argparse.Namespace, out: Out) -> int:
    body = {
        "preset": args.preset,
        "target": args.target,
        "rated": args.rated,
        "days_per_move": args.days,
    }
    seek = client.post("/seeks", body)
    rated = ", rated" if seek.get("rated") else ""
    days = f", {seek['days_per_move']} days per move" if seek.get("days_per_move") else ""
    out(f"Seek #{seek['id']} posted: {seek['preset']} to {seek['target']}{days}{rated}.")
    return 0


def _take(client: Client, args: argparse.Namespace, out: Out) -> int:
    started = client.post(f"/seeks/{args.id}/accept")
    out(f"Match {started['match']} started. Play it: python -m ginclient play {started['match']}")
    return 0


def _matches(client: Client, args: argparse.Namespace, out: Out) -> int:
    found = client.get("/matches", status="all" if args.all else "active")
    for m in found:
        seat = m["seat"] if m["seat"] is not None else 0
        other = next((s for s in m["seats"] if s["seat"] != seat), None)
        versus = other["display_name"] if other else "?"
        turn = " · your turn" if m["your_turn"] else ""
        out(f"{m['id']}  {m['kind']:6} vs {versus:16} {m['status']:9} {m['scores']}{turn}")
    if not found:
        out("No matches." if args.all else "No matches in progress (--all for finished ones).")
    return 0


def _turns(client: Client, args: argparse.Namespace, out: Out) -> int:
    """Correspondence matches waiting for your move, least time left first. A hand that waits
    for your seed for its deal gets a random one of yours at once (docs/fairness.md)."""
    found = client.get("/me/your-turn")
    for t in found:
        rules = f"{t['rules']} to {t['target']}, {t['days_per_move']} days per move"
        said = t["time_left"]
        if t.get("waiting_for") == "seed":
            view = client.get(f"/matches/{t['id']}")["view"]
            if only_seed(view["legal_actions"]):
                client.post(f"/matches/{t['id']}/actions", move_body(view, {"type": "seed"}))
                said = "sent your seed for the deal"
        out(f"{t['id']}  vs {t['opponent']:16} {rules}: {said}")
    if not found:
        out("No correspondence match is waiting for your move.")
    return 0


def _play(client: Client, args: argparse.Namespace, out: Out) -> int:
    return play_match(client, args.match, out, input)


def _bea(client: Client, args: argparse.Namespace, out: Out) -> int:
    match = client.post(
        "/matches/bea",
        {"level": args.level, "preset": args.preset, "target": args.target, "replace": True},
    )
    return play_match(client, match["id"], out, input)


def _pair(client: Client, args: argparse.Namespace, out: Out) -> int:
    """Join the pool, wait for the "paired" event, and play the match here."""
    events = client.stream()
    next(events)  # listening before joining: the "paired" event cannot be missed
    body = {
        "preset": args.preset,
        "target": args.target,
        "rated": args.rated,
        "allow_bots": args.allow_bots,
        "days_per_move": args.days,
    }
    return play_match(client, join_pool(client, events, out, body), out, input)


def _arena(client: Client, args: argparse.Namespace, out: Out) -> int:
    """The site's arenas, or one arena's standings."""
    if not args.arena:
        for item in client.get("/arenas"):
            out(f"{item['id']}  {item['name']}  {item['phase']}, {item['seconds_left']} s left")
        return 0
    arena = client.get(f"/arenas/{args.arena}")
    out(f"{arena['name']}: {arena['phase']}, {arena['players']} players")
    for row in arena["standings"]:
        playing = "  playing" if row["playing"] else ""
        out(f"{row['rank']:>3}. {row['player']['display_name']}  {row['points']}{playing}")
    return 0


def _finished_hands(client: Client, args: argparse.Namespace, out: Out) -> list[int]:
    if args.hand is not None:
        return [args.hand]
    # The hands that are over are the ones in the match's history.
    history = client.get(f"/matches/{args.match}")["view"].get("history") or []
    if not history:
        out("No hand of this match is over yet.")
    return [h["hand_number"] for h in history]


def _replay(client: Client, args: argparse.Namespace, out: Out) -> int:
    hands = _finished_hands(client, args, out)
    for number in hands:
        out(render_replay(client.get(f"/matches/{args.match}/hands/{number}/replay")))
    return 0 if hands else 1


def _verify(client: Client, args: argparse.Namespace, out: Out) -> int:
    hands = _finished_hands(client, args, out)
    failed = 0
    for number in hands:
        verdict = check(client.get(f"/matches/{args.match}/hands/{number}/replay"))
        if verdict.ok:
            out(f"Hand {number}: verified. {_verified(verdict)}")
        else:
            failed += 1
            out(f"Hand {number}: NOT verified: {'; '.join(verdict.problems)}.")
    return 1 if failed or not hands else 0


def _verified(verdict: Verdict) -> str:
    draws = f"{verdict.checked_draws} card(s) drawn from the stock"
    if verdict.cuts:  # the older scheme: the players' seeds cut the stock
        return f"The deal, {verdict.cuts} cut(s) and {draws} are what the server committed to."
    seeds = ", ".join(verdict.seeds) or "none"
    return (
        f"The deal and {draws} come from the server seed it committed to and the players' "
        f"seeds ({seeds}): check that yours is among them."
    )


COMMANDS: dict[str, Callable[[Client, argparse.Namespace, Out], int]] = {
    "me": _me,
    "online": _online,
    "challenges": _challenges,
    "challenge": _challenge,
    "accept": _accept,
    "decline": _decline,
    "accept-counter": _accept_counter,
    "cancel": _cancel,
    "seeks": _seeks,
    "seek": _seek,
    "turns": _turns,
    "take": _take,
    "matches": _matches,
    "play": _play,
    "bea": _bea,
    "pair": _pair,
    "arena": _arena,
    "replay": _replay,
    "verify": _verify,
}


if __name__ == "__main__":
    sys.exit(main())
