"""View assembly: the engine's view of a seat, dressed with the table's own fields."""
from __future__ import annotations

from ..engine.views import view_for
from . import dealing
from .checks import NEXT


def table_view(table, seat: int, acting: bool = False) -> dict:
    names = [st.name for st in table.seats]
    base = view_for(table.hand, seat, names) if table.hand is not None else waiting(table, seat)
    chips = dealing.chips(table)
    me = table.seats[seat]
    # Actions as a client sends them: the seat comes from the token.
    legal = [{k: v for k, v in a.items() if k != "seat"} for a in base["legal"]]
    if me.bot and not acting:
        legal = []          # the person sees their seat is the bot's to play
    elif table.hand is not None and table.hand.over and not me.bot and not me.ready \
            and not table.closed:
        legal = [{"do": NEXT}]
    if table.closed:
        legal = []
    players = [{"seat": p["seat"], "name": st.name, "bot": st.bot,
                "connected": bool(st.bot) or st.sockets > 0, "cards": p["cards"],
                "opened": p["opened"], "chips": chips[s], "ready": st.ready}
               for s, (p, st) in enumerate(zip(base["players"], table.seats))]
    view = {"code": table.code, "game": table.game, "version": table.version, "seat": seat,
            "options": dict(table.options), "players": players}
    view.update((k, v) for k, v in base.items() if k not in view)
    view.update(legal=legal, hand_number=table.hand_number, host=table.host,
                closed=table.closed)
    return view


def waiting(table, seat: int) -> dict:
    return {"game": table.game, "seat": seat,
            "players": [{"seat": s, "cards": 0, "opened": False} for s in range(table.players)],
            "dealer": None, "turn": None, "phase": "waiting", "hand": [], "melds": [],
            "discard_top": None, "discard_pile": [], "stock": 0, "pot": 0, "legal": [],
            "result": None, "log": []}
