"""The compiled core: whole battle games (RULES.md sections 3-7) in numba.

:func:`cardwar.engine.battles.game.Game` stays the reference; this module plays the
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
to that battle and comparing every pile card by card; if the two differ (a
collision), the game is played again with another hash base. So the result
is always the reference engine's first repeat.

Result codes (``REASONS`` order): 0 all_cards, 1 battle_limit,
2 unresolvable, 3 cycle; :data:`NEED_ROOM` asks the caller for a bigger
position table and to play the game again; :data:`CHECK` asks it to
compare two positions; :data:`STOPPED` ends a replay.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .core_deal import numbered_seed, shuffle_into

#: Result codes, in this order (the values of :class:`~.game.Reason`).
REASONS = ("all_cards", "battle_limit", "unresolvable", "cycle")
NEED_ROOM = -1
CHECK = -2
STOPPED = -3
#: The default first hash base (odd; the golden ratio's 64 bits).
HASH_BASE = 0x9E3779B97F4A7C15
_MASK = 63  # ring buffers of 64 slots: more than the 52 cards


def _mixers(n: int) -> list[int]:
    """``n`` odd 64-bit constants (splitmix64), one per seat of a position hash."""
    out, x = [], 0
    for _ in range(n):
        x = (x + 0x9E3779B97F4A7C15) % (1 << 64)
        z = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9 % (1 << 64)
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB % (1 << 64)
        out.append((z ^ (z >> 31)) | 1)
    return out


_SEAT = np.array(_mixers(52), dtype=np.uint64)  # a seat each, up to one card per seat


@njit(cache=True)
def hash_constants(b, pw):  # type: ignore[no-untyped-def]
    """Fill ``pw`` (64 uint64) with ``b**i mod 2**64`` and return the inverse
    of ``b`` (odd) mod 2**64, by Newton's iteration."""
    x = np.uint64(1)
    for i in range(64):
        pw[i] = x
        x = x * b
    inv = b  # an odd b is its own inverse mod 8; each step doubles the bits
    for _ in range(6):
        inv = inv * (np.uint64(2) - b * inv)
    return inv


@njit(cache=True)
def play_game(  # type: ignore[no-untyped-def]
    piles, lens, players, key, d, limit, cycle, stop_at, st, hashing, table, serial, elim
):
    """Play one game from its deal (RULES.md 4-7), all in one loop.

    Args:
        piles: every seat's cards, top first, seat after seat (int array).
        lens: cards per seat.
        key: per card, the battle key (lowest wins).
        d: face-down cards in a peace.
        limit: the battle limit, or 0 for none.
        cycle: True when a repeated position is a draw.
        stop_at: stop after this many battles (-1: play to the end).
        st: the state (buf, head, size, pot, up, h) of :func:`new_state`.
        hashing: (pw, binv): powers of the hash base and its inverse.
        table: (keys, battles, stamps), the position table (a power of two).
        serial: this game's stamp in the table (unique per table).
        elim: per seat, set to the battle in which it went out (0: never).

    Returns:
        (code, winning seat or -1, battles played, earlier battle): code is
        a :data:`REASONS` index, :data:`STOPPED` at ``stop_at``,
        :data:`NEED_ROOM` when the table is too small, or :data:`CHECK`
        when the position's hash was seen after the earlier battle (the
        caller compares the two positions exactly).
    """
    buf, head, size, pot, up, h = st
    pw, binv = hashing
    tkeys, tbattles, tstamps = table
    nslots = tkeys.shape[0]
    tmask = np.uint64(nslots - 1)
    o = 0
    for s in range(players):
        head[s] = 0
        size[s] = lens[s]
        h[s] = np.uint64(0)
        elim[s] = 0
        for i in range(lens[s]):
            c = piles[o + i]
            buf[s, i] = c
            if cycle:
                h[s] += np.uint64(c + 1) * pw[i]
        o += lens[s]
    alive = players
    battles = 0
    if cycle:
        pos = np.uint64(0)
        for s in range(players):
            pos += (h[s] ^ np.uint64(size[s])) * _SEAT[s]
        slot = np.int64(pos & tmask)
        tkeys[slot] = pos
        tbattles[slot] = 0
        tstamps[slot] = serial
    while True:
        if battles == stop_at:
            return STOPPED, -1, battles, 0
        battles += 1
        win = -1
        if players == 2:
            # The common case first: two cards and no tie; the winner puts
            # them under their pile in seat order (RULES.md 6).
            a = buf[0, head[0]]
            b = buf[1, head[1]]
            ka = key[a]
            kb = key[b]
            if ka != kb:
                head[0] = (head[0] + 1) & _MASK
                head[1] = (head[1] + 1) & _MASK
                size[0] -= 1
                size[1] -= 1
                win = 0 if ka < kb else 1
                if cycle:
                    h[0] = (h[0] - np.uint64(a + 1)) * binv
                    h[1] = (h[1] - np.uint64(b + 1)) * binv
                    h[win] += (np.uint64(a + 1) * pw[size[win]]
                               + np.uint64(b + 1) * pw[size[win] + 1])
                t = (head[win] + size[win]) & _MASK
                buf[win, t] = a
                buf[win, (t + 1) & _MASK] = b
                size[win] += 2
        if win < 0:
            # Every seat in play turns a card (rule 4); ties lead to peaces
            # with every seat in play (rule 5), laid into the pot in order.
            n = 0
            best = 99
            nbest = 0
            act = 0
            for s in range(players):
                if size[s] > 0:
                    act |= 1 << s
                    c = buf[s, head[s]]
                    head[s] = (head[s] + 1) & _MASK
                    size[s] -= 1
                    if cycle:
                        h[s] = (h[s] - np.uint64(c + 1)) * binv
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
                    return 2, -1, battles, 0  # rule 5.7: the pot is lost
                best = 99
                nbest = 0
                for s in range(players):
                    if not (act >> s) & 1:
                        continue
                    m = size[s]
                    if m > 0:
                        # m <= d cards: m - 1 face down and the last up (5.3).
                        lay = m if m <= d else d + 1
                        for _ in range(lay):
                            c = buf[s, head[s]]
                            head[s] = (head[s] + 1) & _MASK
                            if cycle:
                                h[s] = (h[s] - np.uint64(c + 1)) * binv
                            pot[n] = c
                            n += 1
                        size[s] -= lay
                        up[s] = pot[n - 1]  # the last card laid: face up
                    k = key[up[s]]  # rule 5.4: with no card, the face-up card stands
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
                if cycle:
                    h[win] += np.uint64(c + 1) * pw[size[win] + i]
                t = (t + 1) & _MASK
            size[win] += n
        for s in range(players):
            if size[s] == 0 and elim[s] == 0:
                elim[s] = battles  # out in this battle (rule 7)
                alive -= 1
        if alive == 1:
            return 0, win, battles, 0
        if limit > 0 and battles >= limit:
            return 1, -1, battles, 0
        if cycle:
            if 2 * (battles + 1) > nslots:
                return NEED_ROOM, -1, battles, 0
            pos = np.uint64(0)
            for s in range(players):
                pos += (h[s] ^ np.uint64(size[s])) * _SEAT[s]
            slot = np.int64(pos & tmask)
            while tstamps[slot] == serial:
                if tkeys[slot] == pos:
                    return CHECK, -1, battles, tbattles[slot]
                slot = np.int64((slot + 1) & (nslots - 1))
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
def _same(a, b, players):  # type: ignore[no-untyped-def]
    """True when states ``a`` and ``b`` hold the same piles, card for card."""
    buf, head, size = a[0], a[1], a[2]
    buf2, head2, size2 = b[0], b[1], b[2]
    for s in range(players):
        if size[s] != size2[s]:
            return False
        for i in range(size[s]):
            if buf[s, (head[s] + i) & _MASK] != buf2[s, (head2[s] + i) & _MASK]:
                return False
    return True


@njit(cache=True)
def play_many(  # type: ignore[no-untyped-def]
    piles, lens, players, key, d, limit, cycle, base, reason, winner, battles, counts, elim
):
    """Play game ``g`` from ``piles[g]``/``lens[g]`` for every row ``g``.

    Fills, per game, ``reason`` (a :data:`REASONS` index), ``winner`` (seat
    or -1), ``battles``, ``counts[g, s]`` (a seat's cards at the end) and
    ``elim[g, s]`` (the battle in which seat ``s`` went out, 0 if never).
    ``base`` (odd uint64) is the first hash base for cycles: it changes the
    speed, never the results (:data:`HASH_BASE` is a good one).
    """
    st = new_state(players)
    work = new_state(players)
    scratch = np.zeros(players, np.int64)
    pw = np.empty(64, np.uint64)
    hashing = (pw, hash_constants(base, pw))
    table = new_table(1 << 12)
    serial = 0
    for g in range(piles.shape[0]):
        while True:
            serial += 1
            r, w, b, seen = play_game(piles[g], lens[g], players, key, d, limit, cycle, -1, st,
                                      hashing, table, serial, elim[g])
            if r == NEED_ROOM:
                table = new_table(2 * table[0].shape[0])
                serial = 0
                continue
            if r == CHECK:
                # The same hash after battle `seen`: replay the deal that far
                # and compare. A collision (never seen yet) plays the game
                # again with another hash.
                play_game(piles[g], lens[g], players, key, d, limit, False, seen, work,
                          hashing, table, serial, scratch)
                if not _same(st, work, players):
                    base += np.uint64(2)
                    hashing = (pw, hash_constants(base, pw))
                    continue
                r = 3
            break
        reason[g] = r
        winner[g] = w
        battles[g] = b
        for s in range(players):
            counts[g, s] = st[2][s]


@njit(cache=True)
def play_seeded(  # type: ignore[no-untyped-def]
    prefix, first, players, key, d, limit, cycle, base, reason, winner, battles, counts, elim,
    order
):
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
    play_many(piles, lens, players, key, d, limit, cycle, base, reason, winner, battles, counts,
              elim)
