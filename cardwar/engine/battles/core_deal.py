"""The verifiable shuffle (RULES.md section 9), compiled for simulations.

The same SHA-256 word stream, Fisher-Yates shuffle, seating draw and deal
as :mod:`cardwar.engine.shuffle` and :func:`cardwar.engine.cards.deal`,
written as plain loops over integer arrays for numba, so that
:mod:`cardwar.engine.battles.core` can deal a game from its seed without leaving
compiled code. A test holds it to the reference, seed by seed.

SHA-256 works on 32-bit words; here they are held in ``int64`` and masked
with ``0xFFFFFFFF`` after every addition, so no sign or overflow tricks are
needed (products never occur).
"""

from __future__ import annotations

import numpy as np
from numba import njit

_M32 = 0xFFFFFFFF

_K = np.array([
    0x428A2F98, 0x71374491, 0xB5C0FBCF, 0xE9B5DBA5, 0x3956C25B, 0x59F111F1, 0x923F82A4,
    0xAB1C5ED5, 0xD807AA98, 0x12835B01, 0x243185BE, 0x550C7DC3, 0x72BE5D74, 0x80DEB1FE,
    0x9BDC06A7, 0xC19BF174, 0xE49B69C1, 0xEFBE4786, 0x0FC19DC6, 0x240CA1CC, 0x2DE92C6F,
    0x4A7484AA, 0x5CB0A9DC, 0x76F988DA, 0x983E5152, 0xA831C66D, 0xB00327C8, 0xBF597FC7,
    0xC6E00BF3, 0xD5A79147, 0x06CA6351, 0x14292967, 0x27B70A85, 0x2E1B2138, 0x4D2C6DFC,
    0x53380D13, 0x650A7354, 0x766A0ABB, 0x81C2C92E, 0x92722C85, 0xA2BFE8A1, 0xA81A664B,
    0xC24B8B70, 0xC76C51A3, 0xD192E819, 0xD6990624, 0xF40E3585, 0x106AA070, 0x19A4C116,
    0x1E376C08, 0x2748774C, 0x34B0BCB5, 0x391C0CB3, 0x4ED8AA4A, 0x5B9CCA4F, 0x682E6FF3,
    0x748F82EE, 0x78A5636F, 0x84C87814, 0x8CC70208, 0x90BEFFFA, 0xA4506CEB, 0xBEF9A3F7,
    0xC67178F2,
], dtype=np.int64)

_H0 = np.array([
    0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
    0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
], dtype=np.int64)


@njit(cache=True)
def _rotr(x: int, n: int) -> int:
    return ((x >> n) | (x << (32 - n))) & _M32


@njit(cache=True)
def _compress(state, msg, off, w):  # type: ignore[no-untyped-def]
    """Fold the 64-byte block ``msg[off:off + 64]`` into ``state`` (8 words)."""
    for t in range(16):
        i = off + 4 * t
        w[t] = ((np.int64(msg[i]) << 24) | (np.int64(msg[i + 1]) << 16)
                | (np.int64(msg[i + 2]) << 8) | np.int64(msg[i + 3]))
    for t in range(16, 64):
        x = w[t - 15]
        y = w[t - 2]
        s0 = _rotr(x, 7) ^ _rotr(x, 18) ^ (x >> 3)
        s1 = _rotr(y, 17) ^ _rotr(y, 19) ^ (y >> 10)
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) & _M32
    a, b, c, d = state[0], state[1], state[2], state[3]
    e, f, g, h = state[4], state[5], state[6], state[7]
    for t in range(64):
        s1 = _rotr(e, 6) ^ _rotr(e, 11) ^ _rotr(e, 25)
        ch = (e & f) ^ ((e ^ _M32) & g)
        t1 = (h + s1 + ch + _K[t] + w[t]) & _M32
        s0 = _rotr(a, 2) ^ _rotr(a, 13) ^ _rotr(a, 22)
        maj = (a & b) ^ (a & c) ^ (b & c)
        h = g
        g = f
        f = e
        e = (d + t1) & _M32
        d = c
        c = b
        b = a
        a = (t1 + s0 + maj) & _M32
    state[0] = (state[0] + a) & _M32
    state[1] = (state[1] + b) & _M32
    state[2] = (state[2] + c) & _M32
    state[3] = (state[3] + d) & _M32
    state[4] = (state[4] + e) & _M32
    state[5] = (state[5] + f) & _M32
    state[6] = (state[6] + g) & _M32
    state[7] = (state[7] + h) & _M32


@njit(cache=True)
def _words_init(seed, msg, mid, w):  # type: ignore[no-untyped-def]
    """Lay out ``seed || k || padding`` in ``msg`` for the word stream.

    The blocks before the one holding the counter ``k`` never change: their
    hash is computed once into ``mid``. Returns the number of blocks.
    """
    n = seed.shape[0]
    total = n + 8
    blocks = (total + 9 + 63) // 64
    for i in range(blocks * 64):
        msg[i] = 0
    for i in range(n):
        msg[i] = seed[i]
    msg[total] = 0x80
    bits = total * 8
    for i in range(8):
        msg[blocks * 64 - 1 - i] = (bits >> (8 * i)) & 0xFF
    for i in range(8):
        mid[i] = _H0[i]
    for b in range(n // 64):
        _compress(mid, msg, 64 * b, w)
    return blocks


@njit(cache=True)
def _uniform(seed_len, blocks, msg, mid, state, w, k, m):  # type: ignore[no-untyped-def]
    """``uniform(m)`` of RULES.md 9 from word ``k`` on; returns (value, next k)."""
    # 2**64 % m, and the rejection test w >= 2**64 - r, on the two 32-bit halves.
    p32 = (1 << 32) % m
    r = (p32 * p32) % m
    while True:
        for i in range(8):
            msg[seed_len + i] = (k >> (8 * (7 - i))) & 0xFF
        k += 1
        for i in range(8):
            state[i] = mid[i]
        for b in range(seed_len // 64, blocks):
            _compress(state, msg, 64 * b, w)
        hi = state[0]
        lo = state[1]
        if r != 0 and hi == _M32 and lo >= (1 << 32) - r:
            continue
        return ((hi % m) * p32 + lo) % m, k


@njit(cache=True)
def shuffle_into(seed, players, deck, order, msg, w):  # type: ignore[no-untyped-def]
    """Shuffle the pack by ``seed`` (uint8 array) into ``deck`` (52 ints) and
    draw the seating into ``order`` (``players`` ints), RULES.md section 9.

    ``msg`` (at least ``len(seed) + 81`` bytes) and ``w`` (64 int64) are
    scratch space.
    """
    mid = np.empty(8, np.int64)
    state = np.empty(8, np.int64)
    n = seed.shape[0]
    blocks = _words_init(seed, msg, mid, w)
    for i in range(52):
        deck[i] = i
    k = 0
    for i in range(51, 0, -1):
        j, k = _uniform(n, blocks, msg, mid, state, w, k, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    for i in range(players):
        order[i] = i
    for i in range(players - 1, 0, -1):
        j, k = _uniform(n, blocks, msg, mid, state, w, k, i + 1)
        t = order[i]
        order[i] = order[j]
        order[j] = t


@njit(cache=True)
def numbered_seed(prefix, i, out):  # type: ignore[no-untyped-def]
    """Write the UTF-8 bytes of ``f"{prefix}/{i}"`` into ``out``; return its length.

    ``prefix`` is already UTF-8 bytes; ``i`` is at least 0.
    """
    n = prefix.shape[0]
    for j in range(n):
        out[j] = prefix[j]
    out[n] = 0x2F  # "/"
    digits = 1
    x = i
    while x >= 10:
        x //= 10
        digits += 1
    x = i
    for j in range(digits):
        out[n + digits - j] = 0x30 + x % 10
        x //= 10
    return n + 1 + digits
