"""What a bot reads from its view: cards as ints, the table, and the hand's events.

A bot sees exactly what a person at the table sees (engine/views.py): its own hand, the
exposed melds, the discard pile, card counts, the events and the legal actions. It reads
no sentences. Nothing here touches a game state; cards.py and melds.py are pure helpers.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property

from ..engine import cards as C
from ..engine.melds import best_split, is_meld
from ..engine.options import OPTIONS


@dataclass(frozen=True)
class Event:
    seat: int | None
    kind: str                       # draw, take, meld, secret, layoff, discard, call, ...
    card: int | None = None         # the card discarded, taken, laid off or drawn (own)
    cards: tuple[int, ...] = ()     # the cards melded
    onto: int | None = None         # layoff: whose meld
    top: int | None = None          # draw/take: the discard top when the turn began
    meld: int | None = None         # layoff: which of that seat's melds (0-based)


@dataclass
class Table:
    """One seat's view, parsed."""
    game: str
    me: int
    players: int
    phase: str
    turn: int | None
    dealer: int
    hand: list[int]
    counts: list[int]               # cards in each seat's hand
    opened: list[bool]
    melds: list[tuple[int, int, tuple[int, ...] | None]]   # (seat, index, cards or None)
    discard: list[int]              # bottom first
    stock: int
    options: dict
    legal: list[dict]
    events: list[Event] = field(default_factory=list)
    stands: dict = field(default_factory=dict)  # (seat, index) -> {wild: stand-in} (Tonk wilds)
    bots: list = field(default_factory=list)    # each seat's bot level, None for a person
    _held: dict = field(default_factory=dict, repr=False)    # held_known, per seat

    @property
    def top(self) -> int | None:
        return self.discard[-1] if self.discard else None

    def next_seat(self, seat: int, k: int = 1) -> int:
        return (seat + k) % self.players

    @cached_property
    def _unseen(self) -> tuple[int, ...]:
        # Seen: this seat's hand, face-up melds, the discard pile.
        seen = set(self.hand) | set(self.discard)
        for _, _, cards in self.melds:
            if cards:
                seen.update(cards)
        deck = 53 if self.options.get("wilds") == "deuces_joker" else 52   # Tonk's joker
        return tuple(c for c in range(deck) if c not in seen)

    def unseen(self) -> list[int]:
        """Cards whose place this seat does not know (other hands, the stock, secret sets)."""
        return list(self._unseen)

    def melds_of(self, seat: int) -> list[tuple[int, tuple[int, ...]]]:
        return [(i, cards) for s, i, cards in self.melds if s == seat and cards]

    def discards_by(self, seat: int) -> list[int]:
        return [e.card for e in self.events if e.seat == seat and e.kind == "discard"]

    def passes_by(self, seat: int) -> list[int]:
        """Discard tops this seat left lying when it drew from the stock instead."""
        return [e.top for e in self.events
                if e.seat == seat and e.kind == "draw" and e.top is not None]

    def held_known(self, seat: int) -> list[int]:
        """Cards another seat took from the discard pile and still holds (Tonk): a take
        names its card (it was face up), and the seat has not played it since."""
        if seat not in self._held:
            self._held[seat] = self._held_known(seat)
        return self._held[seat]

    def _held_known(self, seat: int) -> list[int]:
        held: list[int] = []
        for e in self.events:
            if e.seat != seat:
                continue
            if e.kind == "take" and not e.cards and e.card is not None:
                held.append(e.card)
            for c in (e.card,) if e.kind in ("discard", "layoff") else e.cards:
                if c in held:
                    held.remove(c)
        return held

    def action(self, do: str, **match) -> dict | None:
        """The legal action with `do` and the given fields (cards compared as sets)."""
        for a in self.legal:
            if a["do"] != do:
                continue
            if all(_same(a.get(k), v) for k, v in match.items()):
                return a
        return None


def _same(got, want) -> bool:
    if isinstance(want, (list, tuple, set, frozenset)):
        return got is not None and {C.parse(x) for x in got} == {c for c in want}
    if isinstance(want, int) and isinstance(got, str):
        return C.parse(got) == want
    return got == want


def option(view: dict, game: str, name: str):
    given = view.get("options") or {}
    if name in given:
        return given[name]
    return next(o.default for o in OPTIONS[game] if o.name == name)


def read(view: dict) -> Table:
    game, n = view["game"], len(view["players"])
    options = {o.name: option(view, game, o.name) for o in OPTIONS[game]}
    melds = [(m["seat"], m["index"], tuple(map(C.parse, m["cards"])) if m["cards"] else None)
             for m in view["melds"]]
    discard = [C.parse(c) for c in view.get("discard_pile") or []]
    if not discard and view.get("discard_top"):
        discard = [C.parse(view["discard_top"])]
    t = Table(game=game, me=view["seat"], players=n, phase=view["phase"], turn=view["turn"],
              dealer=view["dealer"], hand=[C.parse(c) for c in view["hand"]],
              counts=[p["cards"] for p in view["players"]],
              opened=[bool(p.get("opened")) for p in view["players"]], melds=melds,
              discard=discard, stock=view["stock"], options=options,
              legal=[{k: v for k, v in a.items() if k != "seat"} for a in view["legal"]])
    t.bots = [p.get("bot") for p in view["players"]]
    t.events = read_events(view.get("events") or [], discard)
    t.stands = {(m["seat"], m["index"]): {C.parse(w): C.parse(c) for w, c in m["as"].items()}
                for m in view["melds"] if m.get("as")}
    return t


# ---- the events ---------------------------------------------------------------------
# The view's `events` in the action language (API.md "Events"): another seat's draw has no
# card, a face-down meld no cards; a take names the card taken.

KINDS = {"call_draw": "call"}       # the bots' own name for a kind, where it differs


def _card(text: str | None) -> int | None:
    return None if text is None else C.parse(text)


def _cards(texts) -> tuple[int, ...]:
    return tuple(sorted(map(C.parse, texts))) if texts else ()


def read_events(events: list[dict], pile_now: list[int]) -> list[Event]:
    """Events in order, each draw/take with the discard top at that moment.

    The pile at the start is rebuilt backwards from the pile now (discards push, takes pop),
    so a seat that drew from the stock can be seen to have passed the top card.
    """
    raw: list[Event] = []
    for e in events:
        do, seat = e["do"], e.get("seat")
        if do == "deal":
            continue
        card = _card(e.get("card"))
        if do == "take":
            melded = _cards(e.get("with"))
            raw.append(Event(seat, "take", card, tuple(sorted(melded + (card,))) if melded else ()))
        elif do == "meld":
            raw.append(Event(seat, "secret" if e.get("face_down") else "meld", None,
                             _cards(e.get("cards"))))
        elif do == "layoff":
            raw.append(Event(seat, "layoff", card, onto=e["onto"]["seat"],
                             meld=e["onto"].get("meld")))
        else:
            raw.append(Event(seat, KINDS.get(do, do), card))
    pile: list[int | None] = list(pile_now)
    for e in reversed(raw):
        if e.kind == "discard" and pile:
            pile.pop()
        elif e.kind == "take":
            pile.append(e.card)
    out = []
    for e in raw:
        if e.kind in ("draw", "take"):
            e = dataclasses.replace(e, top=pile[-1] if pile else None)
        if e.kind == "discard":
            pile.append(e.card)
        elif e.kind == "take" and pile:
            # Tonk's take_from top_two may take the card beneath the top.
            if e.card in pile:
                pile.remove(e.card)
            else:
                pile.pop()
        out.append(e)
    return out


# ---- hand helpers shared by both games ------------------------------------------------

def deadwood_cards(hand) -> list[int]:
    """Cards left over in the best split (highest first)."""
    _, melds = best_split(hand)
    melded = {c for m in melds for c in m}
    return sorted((c for c in hand if c not in melded), key=lambda c: (-C.value(c), c))


def partials(cards, unseen: set[int]) -> list[tuple[int, int, int]]:
    """Pairs that one more unseen card would turn into a meld: (a, b, number of outs)."""
    out = []
    cs = sorted(cards)
    for i, a in enumerate(cs):
        ra = a % 13
        for b in cs[i + 1:]:
            # Same rank, or same suit at most two apart (cards sort by suit, then rank).
            if b % 13 != ra and (b // 13 != a // 13 or b - a > 2):
                continue
            outs = sum(1 for c in completions(a, b) if c in unseen)
            if outs:
                out.append((a, b, outs))
    return out


def completions(a: int, b: int) -> tuple[int, ...]:
    """The cards that make a three-card meld with a and b."""
    ra, rb = C.rank(a), C.rank(b)
    if ra == rb:
        return tuple(s * 13 + ra for s in range(4) if s * 13 + ra not in (a, b))
    if C.suit(a) != C.suit(b):
        return ()
    lo, hi = min(a, b), max(a, b)
    gap = hi - lo
    if gap == 1:
        return tuple(c for c, ok in ((lo - 1, C.rank(lo) > 0), (hi + 1, C.rank(hi) < 12)) if ok)
    if gap == 2:
        return (lo + 1,)
    return ()


def melds_with(held: set[int], card: int) -> bool:
    """Whether `card` and two cards of `held` make a meld."""
    r = card % 13
    if sum(1 for s in range(4) if s * 13 + r in held and s * 13 + r != card) >= 2:
        return True
    near = [card + d in held and 0 <= r + d < 13 for d in (-2, -1, 1, 2)]
    return (near[0] and near[1]) or (near[1] and near[2]) or (near[2] and near[3])


def fits(meld: tuple[int, ...], card: int) -> bool:
    return card not in meld and is_meld(tuple(meld) + (card,))


def minus(hand, *cards) -> list[int]:
    """`hand` without `cards` (one copy each), as a new list."""
    out = list(hand)
    for c in cards:
        out.remove(c)
    return out
