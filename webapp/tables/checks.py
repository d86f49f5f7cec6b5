"""Input checks: every field a client sends is checked here, and refused naming the field."""
from __future__ import annotations

import hashlib
import json

from ..bots import LEVELS as BOT_LEVELS
from ..engine import game as engine
from ..engine.actions import Action
from ..engine.errors import BadAction, BadSetup
from ..engine.options import resolve
from . import match, names
from .errors import BadRequest, Illegal
from .language import TABLE_ACTIONS, TableAction

NAME_MAX = names.NAME_MAX


def is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _dump(obj) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


def request_key(seat: int, version: int, action: dict) -> str:
    """Identifies one request: the same seat sending the same action against the same view."""
    return hashlib.sha256(f"{seat}|{version}|{_dump(action)}".encode()).hexdigest()


def clean_name(name) -> str:
    return names.clean(name)     # webapp/tables/names.py: NFKC, nothing invisible, no labels


def check_seat(seat, players: int) -> None:
    if not is_int(seat) or not 0 <= seat < players:
        raise BadRequest(f"seat: must be a seat from 0 to {players - 1}")


def check_level(level) -> None:
    if level is not None and level not in BOT_LEVELS:
        raise BadRequest(f"level: one of {', '.join(BOT_LEVELS)}, or null for a person")


def check_version(version) -> None:
    if not is_int(version):
        raise BadRequest("version: must be a whole number (the version of the view you acted on)")


# The table's own options (tables/timer.py), beside the engine's.
TURN_SECONDS = (15, 300)    # turn_seconds: 0 (off), or this range
PACE_OPTIONS = {"turn_seconds": 0, "watchers": True}


def take_options(given) -> tuple[dict, object]:
    """(the table's pace options checked and filled in, the rest for the engine)."""
    if not isinstance(given, dict):
        return dict(PACE_OPTIONS), given
    rest = {k: v for k, v in given.items() if k not in PACE_OPTIONS}
    pace = dict(PACE_OPTIONS)
    if "turn_seconds" in given:
        s = given["turn_seconds"]
        if not (isinstance(s, int) and not isinstance(s, bool)
                and (s == 0 or TURN_SECONDS[0] <= s <= TURN_SECONDS[1])):
            raise BadRequest(f"options.turn_seconds: 0 (no timer), or {TURN_SECONDS[0]} to "
                             f"{TURN_SECONDS[1]} seconds")
        pace["turn_seconds"] = s
    if "watchers" in given:
        if not isinstance(given["watchers"], bool):
            raise BadRequest("options.watchers: true or false")
        pace["watchers"] = given["watchers"]
    return pace, rest


def check_setup(game, players, options) -> tuple[int, dict]:
    """(players, resolved options) of a new table."""
    if not isinstance(game, str) or game not in engine.GAMES:
        raise BadRequest('game: must be "tongits" or "tonk"')
    pace, options = take_options(options)
    try:
        given, rules = match.split_given(options)
        options = resolve(game, given) | rules
    except BadSetup as e:
        raise BadRequest(f"{e.field}: {e}" if e.field else str(e)) from None
    counts = engine.player_counts(game, options)
    if players is None and len(counts) == 1:
        players = counts.start
    if players is None and game == "tongits":
        players = 3             # two is a house rule of the apps, asked for by name
    if not is_int(players) or players not in counts:
        raise BadRequest(f"players: {game} is played by {counts.start} to {counts.stop - 1}"
                         if len(counts) > 1 else
                         f"players: {game} is played by exactly {counts.start}")
    return players, {**options, **pace}


def check_bots(bots, players: int) -> dict[int, str]:
    if bots is None:
        return {}
    if not isinstance(bots, dict):
        raise BadRequest('bots: must be an object like {"1": "hard"}')
    out = {}
    for key, level in bots.items():
        seat = int(key) if isinstance(key, str) and key.isdigit() else key
        if not is_int(seat) or not 0 <= seat < players:
            raise BadRequest(f"bots: {key!r} is not a seat (seats are 0 to {players - 1})")
        if level not in BOT_LEVELS:
            raise BadRequest(f"bots.{key}: a bot's level is one of {', '.join(BOT_LEVELS)}")
        out[seat] = level
    if len(out) >= players:
        raise BadRequest("bots: leave at least one seat for a person")
    return out


def parse_action(seat: int, action, players: int) -> tuple[Action | TableAction, dict]:
    """(an engine Action or one of the table's own, the canonical JSON); BadRequest naming
    the field."""
    if not isinstance(action, dict):
        raise BadRequest('action: must be an object like {"do": "draw"}')
    own = TABLE_ACTIONS.get(action.get("do")) if isinstance(action.get("do"), str) else None
    if own is not None and own.sent:
        return own, {"do": own.do}
    try:
        parsed = Action.from_json(action, seat_required=False)
    except BadAction as e:
        raise BadRequest(f"action.{e.field}: {e}" if e.field else f"action: {e}") from None
    if parsed.seat is not None and parsed.seat != seat:
        raise Illegal(f"you sit in seat {seat} and cannot act for seat {parsed.seat}")
    if parsed.onto and not 0 <= parsed.onto[0] < players:
        raise BadRequest(f"action.onto.seat: there is no seat {parsed.onto[0]} "
                         f"(seats are 0 to {players - 1})")
    return parsed, canonical(parsed)


def canonical(action: Action) -> dict:
    """An action as a client sends it (and the journal keeps it): the seat comes from the token."""
    canon = action.to_json()
    canon.pop("seat", None)
    return canon
