"""How ``cardwar play`` tells a game as text: the log lines and the summary.

Both read the JSON record (:func:`cardwar.engine.game_json` or
:func:`cardwar.engine.beggar_json`); seats are table seats.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .engine import get_variant

_REASONS = {
    "all_cards": "holds every card in play",
    "battle_limit": "the battle limit was reached",
    "unresolvable": "a tie nobody could break: no cards left to turn",
    "cycle": "the game repeats itself forever",
}


def _in_turns(record: dict[str, Any]) -> bool:
    """True for a game played in turns (Beggar-my-neighbour), logged trick by trick."""
    return get_variant(record["variant"]).play == "turns"


def _title(record: dict[str, Any]) -> list[str]:
    """The first lines of a game's description: the game, the seed and the seating."""
    name = "Beggar-my-neighbour" if _in_turns(record) else record["variant"].capitalize()
    lines = [f"{name}, {record['players']} players"
             + (f", seed {record['seed']!r}" if record["seed"] is not None else "")]
    if record["seed"] is not None:
        lines.append("Seating drawn from the seed: " + ", ".join(
            f"seat {s} is lobby position {p}" for s, p in enumerate(record["seating"])))
    return lines


def _count(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1: "1 trick", "3 tricks"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _describe_battles(record: dict[str, Any]) -> str:
    lines = _title(record)
    for seat, battle in record["eliminated"].items():
        lines.append(f"  seat {seat} went out in battle {battle}")
    if record["outcome"] == "win":
        lines.append(
            f"Seat {record['winner']} wins after {_count(record['battles'], 'battle')}: "
            + _REASONS[record["reason"]]
        )
    else:
        lines.append(f"Draw after {_count(record['battles'], 'battle')}: "
                     f"{_REASONS[record['reason']]}")
    lines.append(_final_counts(record))
    return "\n".join(lines)


def _final_counts(record: dict[str, Any]) -> str:
    return "Cards at the end: " + ", ".join(
        f"seat {s}: {n}" for s, n in enumerate(record["final_counts"]))


def _describe_beggar(record: dict[str, Any]) -> str:
    lines = _title(record)
    length = f"{_count(record['cards_played'], 'card')} and {_count(record['tricks'], 'trick')}"
    if record["outcome"] == "win":
        # the published records name the players first and second (seat 0 and 1)
        who = ("The first player", "The second player")[record["winner"]]
        lines.append(f"{who} (seat {record['winner']}) wins after {length}: holds all "
                     f"{sum(record['final_counts'])} cards")
    else:
        cycle = record["cycle"]
        lines.append(f"Draw after {length}: {_REASONS[record['reason']]}")
        start = ("the deal" if cycle["start_trick"] == 0 else
                 f"trick {cycle['start_trick']} ({_count(cycle['start_cards'], 'card')})")
        lines.append(f"  the position after {start} came back: a cycle of "
                     f"{_count(cycle['length_tricks'], 'trick')}, "
                     f"{_count(cycle['length_cards'], 'card')}")
    lines.append(_final_counts(record))
    return "\n".join(lines)


def describe(record: dict[str, Any]) -> str:
    """The summary of a finished game, several lines without a final newline."""
    return _describe_beggar(record) if _in_turns(record) else _describe_battles(record)


def log_lines(record: dict[str, Any]) -> Iterator[str]:
    """One line per battle (per trick in Beggar-my-neighbour) of ``record["log"]``, if any."""
    for entry in record.get("log", ()):
        if _in_turns(record):
            yield (f"trick {entry['trick']:>4}: seat {entry['starter']} starts: "
                   f"{' '.join(entry['cards'])} -> seat {entry['taker']} takes "
                   f"{len(entry['cards'])}")
        else:
            up = " ".join(c or "--" for c in entry["face_up"])
            extra = f", {len(entry['peaces'])} peace(s)" if entry["peaces"] else ""
            who = "nobody" if entry["winner"] is None else f"seat {entry['winner']}"
            yield f"battle {entry['battle']:>4}: {up} -> {who} takes {entry['pot']}{extra}"
