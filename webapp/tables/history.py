"""A table's finished hands (API.md "The evening"): the list, and each hand's file.

A hand's file is made from the journal as written (tables/journal.py), never from a view:
the deal's deck, every game action with its seat (a reshuffling draw with its stock), the
match as it stood before the hand, and the salts that sealed the deck and any reshuffled
stock. It is a scenario file (scenarios/FORMAT.md) whose `result` is what `baraha replay`
prints for it, made by the same code. A hand still in play has no file: until it is over,
every hidden card stays on the server.
"""
from __future__ import annotations

import json
import time

from ..engine import scenario
from ..engine.cards import texts
from .errors import Conflict, NotFound
from . import seal
from .language import TABLE_ACTIONS
from .timer import AUTO


def iso(at: float | None) -> str | None:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at)) if at is not None else None


def _played(log: dict) -> list[dict]:
    """The game's own actions of hand `log`, in order: the file's `actions`."""
    return [a for a in log["actions"] if a["action"].get("do") not in TABLE_ACTIONS]


def timed(log: dict) -> set[int]:
    """Which of the file's actions (their indices) the turn timer made for a silent seat."""
    return {i for i, a in enumerate(_played(log)) if (a.get("request") or "").startswith(AUTO)}


def hand_file(game: str, players: int, log: dict) -> dict | None:
    """Hand `log` (Store.hand_log) as its file, or None while it is not over."""
    played = _played(log)
    doc = {
        "game": game, "players": players, "options": log["options"],
        "dealer": log["dealer"], "match": log["match"],
        "deal": {"deck": texts(log["deck"])},
        "actions": [{"seat": a["seat"], **a["action"]} for a in played],
    }
    hand, actions = scenario.load(json.dumps(doc))
    result, _ = scenario.play(hand, actions)
    if result["status"] != "over":
        return None
    salt = log["salt"]
    doc["result"] = result
    doc["fairness"] = {
        "salt": salt,
        "commitment": seal.commitment(salt, log["deck"]) if salt else None,
        "deck_sha256": seal.deck_digest(log["deck"]),
        "reshuffles": [{"salt": a["salt"], "commitment": seal.commitment(a["salt"],
                                                                          a["action"]["stock"])}
                       for a in played if a["salt"] and a["action"].get("stock")],
    }
    doc["number"] = log["number"]
    ends = [a["at"] for a in played if a["at"] is not None]
    doc["ended_at"] = iso(ends[-1] if ends else log["at"])
    return doc


def summary(doc: dict) -> dict:
    """A finished hand as the list shows it."""
    r = doc["result"]
    return {"number": doc["number"], "game": doc["game"], "end": r["end"],
            "winners": r["winners"], "net": r["net"], "ended_at": doc["ended_at"]}


def file_text(doc: dict) -> str:
    """The file as a download and `baraha export` write it."""
    return json.dumps(doc, indent=1) + "\n"


# ---- a live table ------------------------------------------------------------------------

def last_finished(table) -> int:
    with table.lock:
        if table.hand is None:
            return 0
        return table.hand_number if table.hand.over else table.hand_number - 1


def file_of(table, number: int) -> dict:
    """Finished hand `number` of a live table; 404 for no such hand, 409 while in play."""
    return file_and_log(table, number)[0]


def file_and_log(table, number: int) -> tuple[dict, dict]:
    """file_of's file, and the log it was made from (for `timed`)."""
    with table.lock:
        if number < 1 or number > table.hand_number:
            raise NotFound(f"table {table.code} has no hand {number}")
        if number == table.hand_number and not table.hand.over:
            raise Conflict(f"hand {number} is still being played: its file is made once it "
                           "is over")
    log = table.store.hand_log(table.code, number)
    doc = hand_file(table.game, table.players, log) if log is not None else None
    if doc is None:
        raise NotFound(f"table {table.code} has no finished hand {number}")
    return doc, log


def hands(table) -> list[dict]:
    """Every finished hand of the table, oldest first (kept: a finished hand never changes)."""
    kept = table.finished
    out = []
    for n in range(1, last_finished(table) + 1):
        s = kept.get(n)
        if s is None:
            s = kept[n] = summary(file_of(table, n))
        out.append(s)
    return out
