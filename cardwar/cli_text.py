"""How ``cardwar play`` tells a game as text: the log lines and the summary.

Both read the JSON record (:func:`cardwar.engine.game_json`,
:func:`cardwar.engine.beggar_json` or :func:`cardwar.engine.slap_json`);
seats are table seats.
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
    "card_limit": "10,000 cards were put down",
}
#: The slap games' names (RULES.md 11).
_SLAP_NAMES = {"ers": "Egyptian Ratscrew", "slapjack": "Slapjack"}


def _in_turns(record: dict[str, Any]) -> bool:
    """True for a game played in turns (Beggar-my-neighbour), logged trick by trick."""
    return get_variant(record["variant"]).play == "turns"


def _slap_game(record: dict[str, Any]) -> bool:
    """True for a slap game (Egyptian Ratscrew, Slapjack), logged event by event."""
    return get_variant(record["variant"]).play == "slaps"


def _title(record: dict[str, Any]) -> list[str]:
    """The first lines of a game's description: the game, the seed and the seating."""
    name = ("Beggar-my-neighbour" if _in_turns(record) else
            _SLAP_NAMES.get(record["variant"]) or record["variant"].capitalize())
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


def _options_line(record: dict[str, Any]) -> str:
    options = record["options"]
    if record["variant"] == "slapjack":
        said = ["a jack on top"]
    else:
        said = ["doubles"] + [name for key, name in (
            ("sandwich", "sandwiches"), ("marriage", "marriages"),
            ("top_bottom", "top and bottom")) if options[key]]
    patterns = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
    cost = ("gives a card" if record["variant"] == "slapjack"
            else f"burns {_count(options['burn'], 'card')}")
    slap_in = "slapping in allowed" if options["slap_in"] else "no slapping in"
    return f"Slapped: {patterns}; a wrong slap {cost}; {slap_in}"


def _describe_slaps(record: dict[str, Any]) -> str:
    lines = _title(record)
    lines.append(_options_line(record))
    if record["skills"] is not None:
        lines.append("Computers in every seat: " + ", ".join(
            f"seat {s} {skill}" for s, skill in enumerate(record["skills"])))
    for seat, cards in record["out"].items():
        lines.append(f"  seat {seat} went out after card {cards}")
    length = ", ".join([_count(record["cards_played"], "card"), _count(record["tricks"], "trick"),
                        _count(record["slaps"], "slap")]) + f", {record['burned']} burned"
    if record["outcome"] == "win":
        lines.append(f"Seat {record['winner']} wins after {length}: the last player in")
    else:
        lines.append(f"Draw after {length}: {_REASONS[record['reason']]}")
    lines.append(_final_counts(record))
    if record["decided_slaps"]:
        lines.append(f"Slaps that counted (--slaps): {record['decided_slaps']}")
    return "\n".join(lines)


def describe(record: dict[str, Any]) -> str:
    """The summary of a finished game, several lines without a final newline."""
    if _slap_game(record):
        return _describe_slaps(record)
    return _describe_beggar(record) if _in_turns(record) else _describe_battles(record)


def _slap_event_line(event: dict[str, Any]) -> str | None:
    """One event of a slap game's log as a line (the end has none: the summary says it)."""
    kind = event["event"]
    pad = " " * 11
    if kind == "card":
        card, paid_for = event["card"], event["paid_for"]
        if paid_for is None:
            what = f"puts down {card}"
        elif event["owed_for"] == card:
            what = f"pays {card} for {paid_for}, a court card"
        else:
            left = event["owed"] if event["owed_for"] == paid_for else 0
            what = f"pays {card} for {paid_for}" + (f", {left} more" if left else "")
        if event["owed"] and event["owed_for"] == card:
            what += f": seat {event['to_move']} owes {event['owed']}"
        pattern = f"  [{event['pattern'].replace('_', ' ')}]" if event["pattern"] else ""
        return f"card {event['number']:>5}: seat {event['seat']} {what}{pattern}"
    if kind == "window":
        why = {"trick": "paid with plain cards", "unpaid": "nobody left to pay",
               "no_cards": "nobody holds a card"}[event["why"]]
        return f"{pad}{why}: seat {event['taker']} takes the pile after the slap window"
    if kind == "slap":
        what = event["verdict"].replace("_", " ")
        if event["pattern"]:
            what += f" ({event['pattern'].replace('_', ' ')})"
        return f"{pad}seat {event['seat']} slaps pile {event['pile']}: {what}"
    if kind == "burned":
        cards = " ".join(event["cards"])
        if event["to_seat"] is None:
            return f"{pad}seat {event['seat']} burns {cards} under the pile"
        return f"{pad}seat {event['seat']} gives {cards} to seat {event['to_seat']}"
    if kind == "taken":
        trick = f" (trick {event['trick']})" if event["trick"] else ""
        why = {"slap": " with the slap", "end": ", the cards left on the table"}.get(
            event["why"], trick)
        return f"{pad}seat {event['seat']} takes {_count(len(event['cards']), 'card')}{why}"
    if kind == "out":
        return f"{pad}seat {event['seat']} is out"
    return None


def log_lines(record: dict[str, Any]) -> Iterator[str]:
    """One line per battle (per trick in Beggar-my-neighbour, per event in the slap games)
    of ``record["log"]``, if any."""
    for entry in record.get("log", ()):
        if _slap_game(record):
            line = _slap_event_line(entry)
            if line is not None:
                yield line
        elif _in_turns(record):
            yield (f"trick {entry['trick']:>4}: seat {entry['starter']} starts: "
                   f"{' '.join(entry['cards'])} -> seat {entry['taker']} takes "
                   f"{len(entry['cards'])}")
        else:
            up = " ".join(c or "--" for c in entry["face_up"])
            extra = f", {len(entry['peaces'])} peace(s)" if entry["peaces"] else ""
            who = "nobody" if entry["winner"] is None else f"seat {entry['winner']}"
            yield f"battle {entry['battle']:>4}: {up} -> {who} takes {entry['pot']}{extra}"
