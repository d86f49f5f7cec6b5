"""The journal: every change that moves the version is written to the store first, then
applied in memory by `apply`, the same function that replays the log on start-up, so a
restarted server is exactly where it was."""
from __future__ import annotations

import time

from ..engine import game as engine
from ..engine.actions import Action
from . import match, seal
from .checks import request_key
from .language import TABLE_ACTIONS
from . import timer


def write(store, code: str, version: int, kind: str, data: dict) -> None:
    if kind == "seat":
        store.add_seat(code, version, **data)
    elif kind == "deal":
        store.add_hand(code, version, **data)
    else:
        own = TABLE_ACTIONS.get(data["action"]["do"])
        closes = time.time() if own is not None and own.closes else None
        store.add_action(code, version, **data, closed=closes)


def apply(table, version: int, kind: str, data: dict, hand=None) -> None:
    """Apply one row to `table`; `hand` is the engine's result when the caller has it."""
    if kind == "seat":
        st = table.seats[data["seat"]]
        table.tokens.move(table.code, data["seat"], st.token_hash, data["token_hash"])
        st.name, st.token_hash, st.bot = data["name"], data["token_hash"], data["bot"]
        if st.token_hash and table.host is None:
            table.host = data["seat"]
    elif kind == "deal":
        if table.hand is not None:
            table.chips_before = [a + b for a, b in zip(table.chips_before, table.hand.net())]
        table.hand = hand or engine.new_hand(
            table.game, table.players, dealer=data["dealer"], options=data["options"],
            match=data["match"], deck=data["deck"])
        table.hand_number = data["number"]
        table.versions = [version]          # the deal is the hand's first event
        salt = data.get("salt")
        table.sealed = seal.commitment(salt, data["deck"]) if salt else None
        table.seals = {}                    # event index -> a reshuffled stock's commitment
        table.fresh_match = False
        match.settle(table)                 # a hand may end on the deal
        table.pace.auto.clear()             # the server's moves of the hand before
        for st in table.seats:
            st.ready = False
    else:
        seat, action = data["seat"], data["action"]
        own = TABLE_ACTIONS.get(action["do"])
        if own is not None:
            own.apply(table, seat)          # not an event of the hand
        else:
            table.hand = hand or engine.apply(
                table.hand, Action.from_json(action, seat_required=False).for_seat(seat))
            table.versions.append(version)
            if data.get("salt") and action.get("stock"):
                table.seals[len(table.versions) - 1] = seal.commitment(data["salt"],
                                                                       action["stock"])
            match.settle(table)
            if seat is not None:
                timer.noted(table, version, seat, action, data["request"])
        if seat is not None:
            table.last[seat] = data["request"]
    table.version = version


def action_row(table, seat: int | None, canon: dict, key: str | None = None) -> dict:
    row = {"hand_number": table.hand_number, "seat": seat, "action": canon,
           "request": key or request_key(-1 if seat is None else seat, table.version, canon),
           "at": time.time()}
    if canon.get("stock"):                  # a reshuffled stock is sealed as it is made
        row["salt"] = seal.new_salt()
    return row
