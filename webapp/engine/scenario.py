"""Scenario files (scenarios/FORMAT.md): read, check every field, play, report.

`load` turns JSON text into a ready hand plus its actions, or raises ScenarioError naming
the place ("actions[4].card"). `play` applies the actions and returns the replay output.
"""
from __future__ import annotations

import json

from . import cards as C
from .actions import Action
from .errors import BadAction, BadCard, BadSetup, IllegalAction
from .game import GAMES, apply, new_hand, outcome
from .hand import Hand


class ScenarioError(ValueError):
    """The file is not a valid scenario; the message starts with the place."""


def load(text: str) -> tuple[Hand, list[Action]]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ScenarioError(f"line {e.lineno} column {e.colno}: not valid JSON: {e.msg}") from None
    if not isinstance(doc, dict):
        raise ScenarioError("a scenario must be a JSON object")
    game = doc.get("game")
    if game not in GAMES:
        raise ScenarioError(f"game: unknown game {game!r} (tongits or tonk)")
    players = doc.get("players", 3 if game == "tongits" else None)
    if players is None:
        raise ScenarioError("players: missing (Tonk is played by 2 to 6)")
    deal = doc.get("deal")
    if not isinstance(deal, dict):
        raise ScenarioError("deal: missing, or not an object with 'deck' or 'hands'")
    try:
        hand = new_hand(game, players, dealer=doc.get("dealer", 0), options=doc.get("options"),
                        match=doc.get("match"), **_layout(deal))
    except BadSetup as e:
        raise ScenarioError(f"{e.field}: {e}" if e.field else str(e)) from None
    joker = C.JOKER in GAMES[game].deck(hand.options)
    return hand, _actions(doc.get("actions", []), hand.players, joker)


def _layout(deal: dict) -> dict:
    if "deck" in deal:
        return {"deck": _cards(deal["deck"], "deal.deck")}
    if "hands" not in deal:
        raise ScenarioError("deal: needs 'deck' (52 cards) or 'hands' (with 'discard' and 'stock')")
    hands = deal["hands"]
    if not isinstance(hands, list):
        raise ScenarioError("deal.hands: must be a list of hands")
    return {"hands": [_cards(h, f"deal.hands[{s}]") for s, h in enumerate(hands)],
            "discard": _cards(deal.get("discard", []), "deal.discard"),
            "stock": _cards(deal.get("stock", []), "deal.stock")}


def _cards(raw: object, place: str) -> list[int]:
    if not isinstance(raw, list):
        raise ScenarioError(f"{place}: must be a list of cards")
    out = []
    for i, item in enumerate(raw):
        try:
            out.append(C.parse(item))
        except BadCard as e:
            raise ScenarioError(f"{place}[{i}]: {e}") from None
    return out


def _actions(raw: object, players: int, joker: bool) -> list[Action]:
    if not isinstance(raw, list):
        raise ScenarioError("actions: must be a list of actions")
    out = []
    for i, item in enumerate(raw):
        place = f"actions[{i}]"
        try:
            action = Action.from_json(item)
        except BadAction as e:
            raise ScenarioError(f"{place}.{e.field}: {e}" if e.field else f"{place}: {e}") from None
        if not 0 <= action.seat < players:
            raise ScenarioError(f"{place}.seat: there is no seat {action.seat} "
                                f"(seats are 0 to {players - 1})")
        if action.onto and not 0 <= action.onto[0] < players:
            raise ScenarioError(f"{place}.onto.seat: there is no seat {action.onto[0]} "
                                f"(seats are 0 to {players - 1})")
        if not joker and C.JOKER in _named(action):
            raise ScenarioError(f"{place}: there is no joker (JK) in this game: only Tonk with "
                                "wilds \"deuces_joker\" plays one")
        out.append(action)
    return out


def _named(action: Action) -> list[int]:
    return ([action.card] + list(action.cards or ()) + list(action.stock or ())
            + [c for pair in action.stands or () for c in pair])


def play(hand: Hand, actions: list[Action]) -> tuple[dict, bool]:
    """Apply `actions` in order; stop at the first refused one.

    Returns (replay output, whether every action was applied).
    """
    for i, action in enumerate(actions):
        try:
            hand = apply(hand, action)
        except IllegalAction as e:
            return outcome(hand) | {"error": {"index": i, "message": str(e)}}, False
    return outcome(hand) | {"error": None}, True
