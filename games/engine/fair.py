"""A provably fair deal: commit, let the players seed it, reveal (docs/fairness.md).

For each hand the server has a secret *server seed*, derived from the match's secret and the
hand's number, and publishes its SHA-256 (the *commitment*) before the hand is dealt. In the
scheme of today (``SEEDED``) the hand then waits for a seed from each player, and the whole
deck (both hands, the upcard and the stock) is a Fisher-Yates shuffle driven by SHA-256 of the
server seed and both players' seeds. When the hand is over the server seed is revealed, and
anyone can recompute the deal and every card drawn from the stock, and check the server seed
against the commitment.

The server cannot change its part once it has committed, and it committed before any player's
seed for the hand was fixed, so it cannot try secrets until a deal suits it; no player can
steer the deal, as the server seed is secret until the hand is over. Everything here is plain
SHA-256 on UTF-8 text, so a browser or a short script can re-implement it.

Matches made earlier keep the scheme they were dealt with: ``CUT`` (``sha256-fisher-yates-1``:
the deck from the server seed alone, each player's first move cutting the stock) or none at
all (``NONE``: ``state.shuffled_deck``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterator, Sequence

from .cards import ALL_CARDS

# Which provably fair scheme deals a match's hands (``MatchState.fair``).
NONE, CUT, SEEDED = 0, 1, 2
SCHEMES = {CUT: "sha256-fisher-yates-1", SEEDED: "sha256-seeded-deal-2"}
SCHEME = SCHEMES[SEEDED]
# What a player's seed may be: short, printable, no separator of the keys below (":").
PLAYER_SEED = re.compile(r"[A-Za-z0-9_-]{1,64}")


def server_seed(secret: int | str, hand_number: int) -> str:
    """The server seed of one hand: HMAC-SHA256 of ``gin/server-seed/<hand>`` keyed with the
    match's secret (``str(secret)`` in UTF-8), as 64 hex digits. Revealing one hand's seed
    tells nothing of another's."""
    message = f"gin/server-seed/{hand_number}".encode()
    return hmac.new(str(secret).encode(), message, hashlib.sha256).hexdigest()


def commitment(seed: str) -> str:
    """What the server publishes before the hand: SHA-256 of the server seed's 64 hex digits."""
    return hashlib.sha256(seed.encode()).hexdigest()


def _numbers(key: str) -> Iterator[int]:
    """Unsigned 32-bit numbers: SHA-256 of ``<key>:0``, ``<key>:1``, ... read four bytes at a
    time, big-endian."""
    block = 0
    while True:
        digest = hashlib.sha256(f"{key}:{block}".encode()).digest()
        for offset in range(0, 32, 4):
            yield int.from_bytes(digest[offset : offset + 4], "big")
        block += 1


def _below(numbers: Iterator[int], bound: int) -> int:
    """A uniform number in ``[0, bound)``: numbers at or above the largest multiple of
    ``bound`` that fits in 32 bits are skipped, so no remainder is favoured."""
    limit = (1 << 32) - (1 << 32) % bound
    while True:
        number = next(numbers)
        if number < limit:
            return number % bound


def shuffle(cards: Sequence[str], key: str) -> list[str]:
    """Fisher-Yates from the last card down: card ``i`` swaps with card ``j``, uniform in
    ``[0, i]``, for i = n-1 ... 1."""
    out = list(cards)
    numbers = _numbers(key)
    for i in range(len(out) - 1, 0, -1):
        j = _below(numbers, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def deal_key(seed: str, player_seeds: Sequence[str]) -> str:
    """The key that shuffles a hand of the seeded scheme:
    ``deal:<server seed>:<seed of seat 0>:<seed of seat 1>``, "" for a seat that sent none."""
    first, second = player_seeds
    return f"deal:{seed}:{first}:{second}"


def seeded_deck(seed: str, player_seeds: Sequence[str]) -> list[str]:
    """The deck of a hand of the seeded scheme: the 52 codes in the engine's order (A-K of
    clubs, diamonds, hearts, spades), shuffled with ``deal_key``."""
    return shuffle(ALL_CARDS, deal_key(seed, player_seeds))


def deck(seed: str) -> list[str]:
    """The deck of a hand of the ``CUT`` scheme: the 52 codes shuffled with the key
    ``deck:<server seed>`` (the server seed alone)."""
    return shuffle(ALL_CARDS, f"deck:{seed}")


def cut(stock: Sequence[str], seed: str, seat: int, player_seed: str) -> list[str]:
    """The ``CUT`` scheme: the stock after ``seat`` contributed ``player_seed``, shuffled with
    the key ``cut:<server seed>:<seat>:<player seed>``."""
    return shuffle(stock, f"cut:{seed}:{seat}:{player_seed}")


def is_player_seed(value: object) -> bool:
    return isinstance(value, str) and PLAYER_SEED.fullmatch(value) is not None
