"""Many slap games between computers: ``cardwar simulate --variant ers|slapjack``.

Game ``i`` is dealt from the seed ``f"{seed}/{i}"`` (RULES.md 9 and 3) and
played by computers at the given skills, one per lobby position; the seating
drawn from that seed places them (so no skill keeps the first seat), and the
computers draw from the same seed (11.8). The results are the same whatever
the number of processes.
"""

from __future__ import annotations

import multiprocessing
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..ending import Reason
from .computers import Skill
from .records import SlapSetup, play_computers
from .rules import SlapRules

#: Games per task when the games are spread over processes.
CHUNK = 500
#: One game's figures: cards, tricks, slaps, burned, reason, winner seat, winner lobby.
GameRow = tuple[int, int, int, int, str, int, int]


def play_seeds(rules: SlapRules, players: int, skills: Sequence[Skill], seed: str,
               start: int, stop: int) -> list[GameRow]:
    """Play games ``start..stop-1`` of a simulation and return their figures (draw: -1)."""
    rows: list[GameRow] = []
    for i in range(start, stop):
        setup = SlapSetup.from_seed(rules, players, f"{seed}/{i}")
        game, _ = play_computers(setup, skills)
        assert game.reason is not None
        winner = -1 if game.winner is None else game.winner
        rows.append((game.cards_played, game.tricks, game.slaps, game.burned,
                     game.reason.value, winner, -1 if winner < 0 else setup.seating[winner]))
    return rows


def _figures(values: list[int], name: str) -> dict[str, Any]:
    return {f"mean_{name}": round(statistics.fmean(values), 2),
            f"median_{name}": statistics.median(values),
            f"min_{name}": min(values), f"max_{name}": max(values)}


def play_rows(rules: SlapRules, players: int, games: int, seed: str,
              skills: Sequence[Skill], progress: Callable[[int], None] | None = None,
              processes: int = 1) -> list[GameRow]:
    """Every game's figures (:func:`play_seeds` for games ``0..games-1``), in chunks of
    :data:`CHUNK` games, over ``processes`` processes; ``progress`` gets each chunk's size."""
    chunks = [(s, min(s + CHUNK, games)) for s in range(0, games, CHUNK)]
    rows: list[GameRow] = []
    if processes > 1 and len(chunks) > 1:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(processes, mp_context=context) as pool:
            futures = [pool.submit(play_seeds, rules, players, skills, seed, a, b)
                       for a, b in chunks]
            for future in futures:
                part = future.result()
                rows += part
                if progress is not None:
                    progress(len(part))
    else:
        for a, b in chunks:
            rows += play_seeds(rules, players, skills, seed, a, b)
            if progress is not None:
                progress(b - a)
    return rows


def simulate_slaps(rules: SlapRules, players: int, games: int, seed: str = "sim",
                   skills: Sequence[Skill] | None = None,
                   progress: Callable[[int], None] | None = None,
                   processes: int = 1) -> dict[str, Any]:
    """Play ``games`` seeded games between computers and return their statistics.

    Args:
        skills: one per lobby position (default: every computer normal).
        progress: called with the number of games after each chunk.
        processes: spread chunks of :data:`CHUNK` games over this many processes.

    Returns:
        ``{"variant", "players", "games", "seed", "options", "skills" (by lobby
        position), "mean_cards", "median_cards", "min_cards", "max_cards", the
        same for ``tricks`` and ``slaps``, "mean_burned", "reasons", "draw_share",
        "wins_by_seat" (table seats), "wins_by_lobby", "win_share_by_skill"
        (skill -> share of the games won by the computers of that skill, 0..1),
        "longest" ({"seed", "cards"})}``.

    Raises:
        ValueError: ``games`` below 1, or not one skill per player.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    lobby = list(skills or [Skill.NORMAL] * players)
    if len(lobby) != players:
        raise ValueError(f"{len(lobby)} skills for {players} players")
    rows = play_rows(rules, players, games, seed, lobby, progress, processes)
    cards = [r[0] for r in rows]
    wins_by_seat = [0] * players
    wins_by_lobby = [0] * players
    reasons = {Reason.ALL_CARDS.value: 0, Reason.CARD_LIMIT.value: 0}
    for row in rows:
        reasons[row[4]] += 1
        if row[5] >= 0:
            wins_by_seat[row[5]] += 1
            wins_by_lobby[row[6]] += 1
    by_skill = {skill.value: round(sum(wins_by_lobby[p] for p in range(players)
                                       if lobby[p] is skill) / games, 6)
                for skill in Skill if skill in lobby}
    longest = max(range(games), key=cards.__getitem__)
    return {
        "variant": rules.variant, "players": players, "games": games, "seed": seed,
        "options": rules.options(), "skills": [s.value for s in lobby],
        **_figures(cards, "cards"), **_figures([r[1] for r in rows], "tricks"),
        **_figures([r[2] for r in rows], "slaps"),
        "mean_burned": round(statistics.fmean(r[3] for r in rows), 2),
        "reasons": reasons,
        "draw_share": round(reasons[Reason.CARD_LIMIT.value] / games, 6),
        "wins_by_seat": wins_by_seat, "wins_by_lobby": wins_by_lobby,
        "win_share_by_skill": by_skill,
        "longest": {"seed": f"{seed}/{longest}", "cards": cards[longest]},
    }
