"""The compiled core: whole battle games (RULES.md sections 3-7) in numba.

:func:`cardwar.engine.game.Game` stays the reference; this module plays the
same rules as plain loops over integer arrays, compiled by numba
(``@njit(cache=True)``: compiled once, then loaded from numba's cache), one
game after another inside one call. A test holds the two together game by
game, for every variant and player count, cycles included.

Layout:

* a pile is a ring buffer: row ``s`` of ``buf`` (64 slots, ``head[s]`` its
  top card, ``size[s]`` its number of cards);
* the pot is ``pot[:n]`` in laying order (RULES.md 6);
* ``key[card]`` is the card's rank turned so that the lowest key wins
  (the rank in Peace, ``12 - rank`` in War).

Cycles (RULES.md 7, Endless War): each pile keeps a polynomial hash of its
cards (mod 2**64, updated as cards leave the top and join the bottom);
a position's hash goes in an open-addressing table with the battle it was
seen after. A hash met again is checked exactly, by replaying the deal up
to that battle and comparing every pile card by card, so the result is the
reference engine's first repeat, never a hash collision.

Result codes (``REASONS`` order): 0 all_cards, 1 battle_limit,
2 unresolvable, 3 cycle; :data:`NEED_ROOM` asks the caller for a bigger
position history and to play the game again.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .core_deal import numbered_seed, shuffle_into

#: Result codes, in this order (the values of :class:`~.game.Reason`).
REASONS = ("all_cards", "battle_limit", "unresolvable", "cycle")
NEED_ROOM = -1
_MASK = 63  # ring buffers of 64 slots: more than the 52 cards

_B = np.uint64(0x9E3779B97F4A7C15)  # odd, so it has an inverse mod 2**64


def _inverse(b: int) -> int:
    return pow(b, -1, 1 << 64)


_BINV = np.uint64(_inverse(int(_B)))
_POW = np.array([pow(int(_B), i, 1 << 64) for i in range(64)], dtype=np.uint64)
_SEAT = np.array([0x243F6A8885A308D3, 0x13198A2E03707344, 0xA4093822299F31D0,
                  0x082EFA98EC4E6C89], dtype=np.uint64)


@njit(cache=True)
def _battle(buf, head, size, players, key, d, pot, up, hashing, h):  # type: ignore[no-untyped-def]
    """Play one battle with all its peaces; return the winning seat, or -1
    when the battle cannot be decided (RULES.md 5.7; the pot is then lost)."""
    n = 0
    best = 99
    nbest = 0
    win = -1
    act = 0
    for s in range(players):
        if size[s] > 0:
            act |= 1 << s
            c = buf[s, head[s]]
            head[s] = (head[s] + 1) & _MASK
            size[s] -= 1
            if hashing:
                h[s] = (h[s] - np.uint64(c + 1)) * _BINV
            pot[n] = c
            n += 1
            up[s] = c
            k = key[c]
            if k < best:
                best = k
                nbest = 1
                win = s
            elif k == best:
                nbest += 1
    while nbest > 1:
        left = False
        for s in range(players):
            if (act >> s) & 1 and size[s] > 0:
                left = True
        if not left:
            return -1
        best = 99
        nbest = 0
        for s in range(players):
            if not (act >> s) & 1:
                continue
            m = size[s]
            if m > 0:
                # k <= d cards: k - 1 face down and the last up; else d and one.
                lay = m if m <= d else d + 1
                for _ in range(lay):
                    c = buf[s, head[s]]
                    head[s] = (head[s] + 1) & _MASK
                    if hashing:
                        h[s] = (h[s] - np.uint64(c + 1)) * _BINV
                    pot[n] = c
                    n += 1
                size[s] -= lay
                up[s] = c
            k = key[up[s]]  # rule 5.4: a seat with no card keeps its face-up card
            if k < best:
                best = k
                nbest = 1
                win = s
            elif k == best:
                nbest += 1
    t = (head[win] + size[win]) & _MASK
    for i in range(n):
        c = pot[i]
        buf[win, t] = c
        if hashing:
            h[win] += np.uint64(c + 1) * _POW[size[win] + i]
        t = (t + 1) & _MASK
    size[win] += n
    return win


@njit(cache=True)
def _load(piles, lens, players, buf, head, size, hashing, h):  # type: ignore[no-untyped-def]
    """Put the deal (``piles`` flat, ``lens`` cards a seat) into the ring buffers."""
    o = 0
    for s in range(players):
        head[s] = 0
        size[s] = lens[s]
        h[s] = np.uint64(0)
        for i in range(lens[s]):
            c = piles[o + i]
            buf[s, i] = c
            if hashing:
                h[s] += np.uint64(c + 1) * _POW[i]
        o += lens[s]


@njit(cache=True)
def _position(h, size, players):  # type: ignore[no-untyped-def]
    x = np.uint64(0)
    for s in range(players):
        x += (h[s] ^ np.uint64(size[s])) * _SEAT[s]
    return x


@njit(cache=True)
def _same(buf, head, size, buf2, head2, size2, players):  # type: ignore[no-untyped-def]
    for s in range(players):
        if size[s] != size2[s]:
            return False
        for i in range(size[s]):
            if buf[s, (head[s] + i) & _MASK] != buf2[s, (head2[s] + i) & _MASK]:
                return False
    return True


@njit(cache=True)
def _repeats(piles, lens, players, key, d, battles, buf, head, size, work):  # type: ignore[no-untyped-def]
    """True when the position after ``battles`` battles of the deal is the
    current one (``buf``, ``head``, ``size``); ``work`` is scratch state."""
    buf2, head2, size2, pot2, up2, h2 = work
    _load(piles, lens, players, buf2, head2, size2, False, h2)
    for _ in range(battles):
        _battle(buf2, head2, size2, players, key, d, pot2, up2, False, h2)
    return _same(buf, head, size, buf2, head2, size2, players)


@njit(cache=True)
def play_game(piles, lens, players, key, d, limit, cycle, state, work, table, serial, elim):  # type: ignore[no-untyped-def]
    """Play one game from its deal to the end (RULES.md 4-7).

    Args:
        piles: every seat's cards, top first, seat after seat (int array).
        lens: cards per seat.
        key: per card, the battle key (lowest wins).
        d: face-down cards in a peace.
        limit: the battle limit, or 0 for none.
        cycle: True when a repeated position is a draw.
        state, work: (buf, head, size, pot, up, h) arrays: the game's and
            scratch state for replays.
        table: (keys, battles, stamps) of the position table; its size is a
            power of two, at least twice the history a game may keep.
        serial: this game's stamp in the table (unique per call).
        elim: per seat, set to the battle in which it went out (0: never).

    Returns:
        (reason code, winning seat or -1, battles played); reason
        :data:`NEED_ROOM` when the position table is too small.
    """
    buf, head, size, pot, up, h = state
    tkeys, tbattles, tstamps = table
    tmask = np.uint64(tkeys.shape[0] - 1)
    room = tkeys.shape[0] // 2
    _load(piles, lens, players, buf, head, size, cycle, h)
    alive = players
    for s in range(players):
        elim[s] = 0
    if cycle:
        pos = _position(h, size, players)
        slot = np.int64(pos & tmask)
        tkeys[slot] = pos
        tbattles[slot] = 0
        tstamps[slot] = serial
    battles = 0
    while True:
        battles += 1
        win = _battle(buf, head, size, players, key, d, pot, up, cycle, h)
        if win < 0:
            return 2, -1, battles
        for s in range(players):
            if size[s] == 0 and elim[s] == 0 and s != win:
                # went out in this battle (a seat out earlier has elim set)
                elim[s] = battles
                alive -= 1
        if alive == 1:
            return 0, win, battles
        if limit > 0 and battles >= limit:
            return 1, -1, battles
        if cycle:
            if battles >= room:
                return NEED_ROOM, -1, battles
            pos = _position(h, size, players)
            slot = np.int64(pos & tmask)
            while tstamps[slot] == serial:
                if tkeys[slot] == pos and _repeats(
                    piles, lens, players, key, d, tbattles[slot], buf, head, size, work
                ):
                    return 3, -1, battles
                slot = (slot + 1) & np.int64(tkeys.shape[0] - 1)
            tkeys[slot] = pos
            tbattles[slot] = battles
            tstamps[slot] = serial


@njit(cache=True)
def new_state(players):  # type: ignore[no-untyped-def]
    """Fresh (buf, head, size, pot, up, h) arrays for ``players`` seats."""
    return (np.zeros((players, _MASK + 1), np.int64), np.zeros(players, np.int64),
            np.zeros(players, np.int64), np.zeros(64, np.int64), np.zeros(players, np.int64),
            np.zeros(players, np.uint64))


@njit(cache=True)
def new_table(size):  # type: ignore[no-untyped-def]
    """A fresh position table of ``size`` slots (a power of two)."""
    return (np.zeros(size, np.uint64), np.zeros(size, np.int64), np.zeros(size, np.int64))


@njit(cache=True)
def play_many(piles, lens, players, key, d, limit, cycle, reason, winner, battles, counts, elim):  # type: ignore[no-untyped-def]
    """Play game ``g`` from ``piles[g]``/``lens[g]`` for every row ``g``.

    Fills, per game, ``reason`` (code), ``winner`` (seat or -1), ``battles``,
    ``counts[g, s]`` (final cards a seat) and ``elim[g, s]``.
    """
    state = new_state(players)
    work = new_state(players)
    size = 1 << 12
    table = new_table(size)
    serial = 0
    for g in range(piles.shape[0]):
        while True:
            serial += 1
            r, w, b = play_game(piles[g], lens[g], players, key, d, limit, cycle, state, work,
                                table, serial, elim[g])
            if r != NEED_ROOM:
                break
            size *= 2
            table = new_table(size)
            serial = 0
        reason[g] = r
        winner[g] = w
        battles[g] = b
        for s in range(players):
            counts[g, s] = state[2][s]


@njit(cache=True)
def play_seeded(prefix, first, players, key, d, limit, cycle, reason, winner, battles, counts, elim, order):  # type: ignore[no-untyped-def]
    """Deal game ``first + g`` from the seed ``f"{prefix}/{first + g}"``
    (RULES.md 9 and 3) and play it, for ``g`` in ``range(len(reason))``.

    Fills the arrays of :func:`play_many` and ``order[g]``, the seating
    (table seat -> lobby position) drawn from the same seed.
    """
    games = reason.shape[0]
    each = 52 // players
    piles = np.empty((games, each * players), np.int64)
    lens = np.full((games, players), each, np.int64)
    seed = np.empty(prefix.shape[0] + 21, np.uint8)
    msg = np.empty(prefix.shape[0] + 21 + 8 + 128, np.uint8)
    w = np.empty(64, np.int64)
    deck = np.empty(52, np.int64)
    for g in range(games):
        n = numbered_seed(prefix, first + g, seed)
        shuffle_into(seed[:n], players, deck, order[g], msg, w)
        for s in range(players):
            for i in range(each):
                piles[g, s * each + i] = deck[s + i * players]
    play_many(piles, lens, players, key, d, limit, cycle, reason, winner, battles, counts, elim)
