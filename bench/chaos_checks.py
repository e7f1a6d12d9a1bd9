"""The chaos soak's checks after the run: the store, the replays, the logs (bench/chaos.py)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from chaos_pages import Game
from chaos_services import ROOT, Fault

#: Seconds after a fault's end within which its tracebacks are its own.
SETTLE = 10.0


async def stored_events(dsn: str, ids: list[str]) -> dict[str, list[tuple[int, str, dict]]]:
    """The stored events of the games ``ids``: id -> [(seq, type, data)] in order."""
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch("SELECT game_id, seq, type, data FROM events "
                                "WHERE game_id = ANY($1::text[]) ORDER BY game_id, seq", ids)
    finally:
        await conn.close()
    found: dict[str, list[tuple[int, str, dict]]] = {i: [] for i in ids}
    for r in rows:
        data = r["data"]
        found[r["game_id"]].append((r["seq"], r["type"],
                                    json.loads(data) if isinstance(data, str) else dict(data)))
    return found


def replayed(seed: str) -> dict[str, Any]:
    """``cardwar play --seed SEED --log --json`` of a two-player Peace game."""
    done = subprocess.run(
        [sys.executable, "-m", "cardwar.cli", "play", "--variant", "peace", "--players", "2",
         "--seed", seed, "--log", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    return dict(json.loads(done.stdout))


def check_games(games: list[Game], events: dict[str, list[tuple[int, str, dict]]],
                ) -> dict[str, int]:
    """Compare every game's store, pages and result with the replay of its seed."""
    out = {"finished": 0, "replay": 0, "store_gaps": 0, "store_doubled": 0, "lost_flips": 0,
           "unanswered_flips": 0, "unsent_flips": 0, "pages_differ": 0, "never_saw_end": 0,
           "stuck": 0, "lobbies_left": 0, "flips_sent": 0}
    for game in games:
        stored = events.get(game.id, [])
        seqs = [s for s, _, _ in stored]
        if seqs != list(range(1, len(seqs) + 1)):
            out["store_gaps"] += 1
        battles = [d for _, t, d in stored if t == "battle"]
        numbers = [b["battle"] for b in battles]
        out["store_doubled"] += len(numbers) - len(set(numbers))
        by_hand: dict[int, set[int]] = {}
        for _, t, d in stored:
            if t == "flipped" and d["by"] == "player":
                by_hand.setdefault(d["seat"], set()).add(d["battle"])
        for page in game.players:
            out["flips_sent"] += len(page.sent)
            seat = game.table_seat(page.lobby) if page.lobby is not None else None
            if seat is None:
                continue
            mine = by_hand.get(seat, set())
            out["lost_flips"] += len(page.answered - mine)
            # sent, never answered, not stored: on its way when a socket or a
            # process died (a fault), so perhaps never received
            out["unanswered_flips"] += len(page.sent - page.answered - mine)
            out["unsent_flips"] += len(mine - page.sent)
        over = next((d for _, t, d in stored if t == "over"), None)
        if over is None:
            kinds = [t for _, t, _ in stored]
            left = "left" in kinds[:kinds.index("started")] if "started" in kinds \
                else "left" in kinds
            out["lobbies_left" if left else "stuck"] += 1  # nobody sits down again
            continue
        out["finished"] += 1
        out["never_saw_end"] += sum(not p.saw_end for p in game.pages)
        expected = replayed(over["seed"])
        same = (over["battles"] == expected["battles"] == len(battles)
                and over["winner"] == expected["winner"]
                and numbers == list(range(1, expected["battles"] + 1))
                and all((b["face_up"], b["winner"], b["counts"])
                        == (e["face_up"], e["winner"], e["counts"])
                        for b, e in zip(battles, expected["log"], strict=False)))
        out["replay"] += same
        played = {b["battle"]: (b["face_up"], b["winner"], b["counts"]) for b in battles}
        for page in game.pages:
            if any(played.get(n) != seen for n, seen in page.seen.items()):
                out["pages_differ"] += 1
    return out


def _moment(line: dict[str, Any]) -> float | None:
    with_zone = str(line.get("time", "")).replace("Z", "+00:00")
    try:
        return datetime.fromisoformat(with_zone).timestamp()
    except ValueError:
        return None


def tracebacks(logs: list[Path], faults: list[Fault]) -> tuple[int, int, list[str]]:
    """(tracebacks in all, those outside every fault's window, a sample of the
    latter). A window runs from a fault's start to :data:`SETTLE` s after its
    end (wall clock); a plain-text traceback takes the time of the line before."""
    windows = [(f.window[0] - 1.0, f.window[1] + SETTLE) for f in faults if f.window]
    total = outside = 0
    sample: list[str] = []
    for path in logs:
        last: float | None = None
        for text in path.read_text(errors="replace").splitlines():
            line: dict[str, Any] | None = None
            if text.startswith("{"):
                try:
                    line = json.loads(text)
                except ValueError:
                    line = None
            if line is not None:
                last = _moment(line) or last
                bad = "exc_info" in line or line.get("level") in ("ERROR", "CRITICAL")
                what = f"{path.name}: {line.get('message')} {str(line.get('exc_info', ''))[-300:]}"
            else:
                bad = text.startswith("Traceback")
                what = f"{path.name}: {text}"
            if not bad:
                continue
            total += 1
            if last is None or not any(lo <= last <= hi for lo, hi in windows):
                outside += 1
                if len(sample) < 5:
                    sample.append(what)
    return total, outside, sample


def read_store(dsn: str, games: list[Game]) -> dict[str, list[tuple[int, str, dict]]]:
    """:func:`stored_events` of ``games`` (synchronously)."""
    return asyncio.run(stored_events(dsn, [g.id for g in games if g.id]))
