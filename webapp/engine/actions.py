"""The action language of scenarios/FORMAT.md as small frozen values.

`Action.from_json` reads one JSON object (a replay line, an API body, a web form turned
into JSON) and `to_json` writes it back, so every client speaks the same language.
"""
from __future__ import annotations

from typing import NamedTuple

from . import cards as C
from .errors import BadAction, BadCard

# Every `do` of both games; which game allows which is the game's business (an action of
# the other game is well formed but illegal).
DOS = ("draw", "take", "meld", "layoff", "discard", "tongit", "call_draw", "fold",
       "challenge", "drop")


class Action(NamedTuple):
    """One action. A NamedTuple rather than a frozen dataclass: legal-action listing builds
    thousands of these a second, and a tuple is several times cheaper to make."""

    do: str
    seat: int | None = None
    card: int | None = None                 # discard, layoff; take: the card taken (Tonk)
    cards: tuple[int, ...] | None = None    # meld's cards, or take's `with`
    onto: tuple[int, int] | None = None     # layoff: (seat, meld index)
    face_down: bool = False                 # meld: a secret set of four
    # Tonk house rules. `stands` is the JSON `as` (a Python keyword): the (wild, stand-in)
    # pairs of the wild cards played, sorted; None when the action carries no `as`.
    stands: tuple[tuple[int, int], ...] | None = None
    stock: tuple[int, ...] | None = None    # draw: the reshuffled stock, top first

    @classmethod
    def from_json(cls, obj: object, *, seat_required: bool = True) -> "Action":
        if not isinstance(obj, dict):
            raise BadAction(f"an action must be an object, not {_kind(obj)}")
        do = obj.get("do")
        if do not in DOS:
            raise BadAction(f"unknown action {do!r} (one of: {', '.join(DOS)})"
                            if "do" in obj else "the action has no 'do'", "do")
        seat = obj.get("seat")
        if seat is None and seat_required:
            raise BadAction("the action has no 'seat'", "seat")
        if seat is not None and not _is_int(seat):
            raise BadAction(f"'seat' must be a whole number, not {_kind(seat)}", "seat")
        card = cards = onto = None
        if do in ("discard", "layoff"):
            card = _card(obj, "card")
        if do == "take" and obj.get("card") is not None:    # Tonk's take_from top_two
            card = _card(obj, "card")
        if do == "meld":
            cards = _cards(obj, "cards")
        if do == "take" and obj.get("with") is not None:
            cards = _cards(obj, "with")
        if do == "layoff":
            onto = _onto(obj)
        face_down = obj.get("face_down", False) if do == "meld" else False
        if not isinstance(face_down, bool):
            raise BadAction(f"'face_down' must be true or false, not {_kind(face_down)}",
                            "face_down")
        # Read wherever they are given, so that a misplaced one is refused, not ignored.
        stands = _stands(obj) if obj.get("as") is not None else None
        stock = _stock(obj) if obj.get("stock") is not None else None
        return cls(do, seat, card, cards, onto, face_down, stands, stock)

    def to_json(self) -> dict:
        out: dict = {} if self.seat is None else {"seat": self.seat}
        out["do"] = self.do
        if self.card is not None:
            out["card"] = C.text(self.card)
        if self.cards is not None:
            out["with" if self.do == "take" else "cards"] = C.texts(self.cards)
        if self.onto is not None:
            out["onto"] = {"seat": self.onto[0], "meld": self.onto[1]}
        if self.face_down:
            out["face_down"] = True
        if self.stands:
            out["as"] = {C.text(w): C.text(c) for w, c in self.stands}
        if self.stock is not None:
            out["stock"] = C.texts(self.stock)
        return out

    def for_seat(self, seat: int) -> "Action":
        return self._replace(seat=seat)

    def __str__(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.to_json().items())


def _kind(v: object) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false",
            type(None): "null"}.get(type(v), type(v).__name__)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _card(obj: dict, key: str) -> int:
    if key not in obj:
        raise BadAction(f"the action has no '{key}'", key)
    try:
        return C.parse(obj[key])
    except BadCard as e:
        raise BadAction(str(e), key) from None


def _cards(obj: dict, key: str) -> tuple[int, ...]:
    raw = obj.get(key)
    if not isinstance(raw, list) or not raw:
        raise BadAction(f"'{key}' must be a non-empty list of cards", key)
    out = []
    for i, item in enumerate(raw):
        try:
            c = C.parse(item)
        except BadCard as e:
            raise BadAction(str(e), f"{key}[{i}]") from None
        if c in out:
            raise BadAction(f"{C.text(c)} is listed twice", f"{key}[{i}]")
        out.append(c)
    return tuple(out)


def _stands(obj: dict) -> tuple[tuple[int, int], ...] | None:
    """`as`: an object from each wild card played to its stand-in; {} is the same as none."""
    raw = obj["as"]
    if not isinstance(raw, dict):
        raise BadAction('\'as\' must be an object from each wild card to its stand-in, '
                        'like {"JK": "6H"}', "as")
    pairs = {}
    for i, (key, val) in enumerate(raw.items()):
        try:
            wild = C.parse(key)
        except BadCard as e:
            raise BadAction(str(e), f"as.{key}") from None
        try:
            pairs[wild] = C.parse(val)
        except BadCard as e:
            raise BadAction(str(e), f"as.{key}") from None
        if len(pairs) != i + 1:               # "jk" and "JK" are the same card
            raise BadAction(f"{C.text(wild)} is listed twice", f"as.{key}")
    return tuple(sorted(pairs.items())) or None


def _stock(obj: dict) -> tuple[int, ...]:
    """A reshuffled stock: a list of cards, top first (whether they are the right ones is
    for the game to say)."""
    raw = obj["stock"]
    if not isinstance(raw, list):
        raise BadAction("'stock' must be a list of cards, top first", "stock")
    out = []
    for i, item in enumerate(raw):
        try:
            out.append(C.parse(item))
        except BadCard as e:
            raise BadAction(str(e), f"stock[{i}]") from None
    return tuple(out)


def _onto(obj: dict) -> tuple[int, int]:
    onto = obj.get("onto")
    if not isinstance(onto, dict):
        raise BadAction("'onto' must be an object like {\"seat\": 1, \"meld\": 0}", "onto")
    for key in ("seat", "meld"):
        if not _is_int(onto.get(key)) or onto[key] < 0:
            raise BadAction(f"'onto.{key}' must be a whole number from 0", f"onto.{key}")
    return onto["seat"], onto["meld"]


# Every discard by every seat, made once: listing legal actions hands these out again
# and again, and an Action is immutable, so one value serves every hand.
DISCARDS = tuple(tuple(Action("discard", s, card=c) for c in range(53)) for s in range(6))
