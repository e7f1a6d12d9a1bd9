"""The records and the endless game of Beggar-my-neighbour (RULES.md 10).

* ``/{locale}/beggar-my-neighbour/records``: the story of the search for the
  longest game and the endless one, with sources, and the table of the
  published record deals (:data:`cardwar.engine.beggar.deals.RECORD_DEALS`)
  with the cards and tricks *our* engine computes for them.
* ``/{locale}/beggar-my-neighbour/records/{slug}``: one deal in the replay
  viewer (the same page and script as a finished game's replay); the
  endless deal shows its cycle and counts the rounds.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardwar.engine import BEGGAR, beggar_json
from cardwar.engine.beggar.deals import record_deal, record_results

from .seats import check_locale
from .strings import client_strings, record_seat_names
from .templating import render
from .variants import page_of

router = APIRouter()
#: The rules page's path segment; the records live under it.
BASE = page_of(BEGGAR).path


def records_path(locale: str) -> str:
    """The records page of ``locale``."""
    return f"/{locale}/{BASE}/records"


@router.get("/{locale}/" + BASE + "/records", include_in_schema=False)
async def records_page(request: Request, locale: str) -> Response:
    """The story and the table of the record deals, computed by the engine."""
    check_locale(locale)
    return render(request, "beggar_records.html", locale, active=BEGGAR.name,
                  variant=BEGGAR, page=page_of(BEGGAR), records=record_results(),
                  preview_image=BEGGAR.name,
                  rules_page=f"/{locale}/{BASE}")


@router.get("/{locale}/" + BASE + "/records/{slug}", include_in_schema=False)
async def record_replay(request: Request, locale: str, slug: str) -> Response:
    """One record deal in the replay viewer (every trick; an endless deal's cycle)."""
    check_locale(locale)
    deal = record_deal(slug)
    if deal is None:
        raise StarletteHTTPException(404)
    setup = deal.setup()
    seats = [{"seat": s, "kind": "human", "nickname": name}
             for s, name in enumerate(record_seat_names(locale))]
    data = {"record": beggar_json(setup, log=True), "seats": seats, "turns": True,
            "tie_word": None, "battle_limit": None, "locale": locale,
            "start_counts": [len(p) for p in setup.piles]}
    return render(request, "play/replay.html", locale, page=page_of(BEGGAR),
                  active=BEGGAR.name, show_alternates=False, record=deal, turns=True,
                  preview_image=BEGGAR.name,
                  result=next(r for r in record_results() if r["slug"] == slug),
                  page_strings=client_strings(locale, BEGGAR.name),
                  replay_data=data, download=None, game_page=None,
                  records_page=records_path(locale))

