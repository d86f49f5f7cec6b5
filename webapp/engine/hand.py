"""The state of one hand, shared by both games.

A `Hand` is plain data. The game modules (tongits.py, tonk.py) never change a Hand they
are given: `apply` works on `clone()` and returns it, so a refused action leaves the
caller's state exactly as it was.

Conventions:
- `stock[-1]` is the top of the stock and `discard[-1]` the top of the discard pile.
- `melds[s]` are seat s's exposed melds in the order exposed (the action language's
  `onto.meld` index).
- `lines` is the hand's money, line by line, antes included: each Line moves chips from a
  seat (or the side pot, POT) to a seat (or POT). Nets and the pot are derived from it.
- `events` is the hand's story in the action language: the deal, then every accepted
  Action with its seat (game.py records them; views.py hides them per seat). No words:
  sentences are made outside the engine (webapp/words.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .actions import Action

POT = -1  # a Line's payer or payee that is the side pot


@dataclass(frozen=True)
class Meld:
    """An exposed meld. Clones of a Hand share Meld objects, so a Meld is never changed:
    a lay-off replaces it with `plus(card, seat)`."""
    seat: int                       # whose meld it is
    cards: list[int]                # kept sorted
    face_down: bool = False         # a secret set of four (Tong-its)
    by: dict[int, int] = field(default_factory=dict)  # card -> seat that put it there
    stands: tuple = ()              # Tonk wilds: (wild, stand-in) pairs, sorted

    def plus(self, card: int, seat: int, stand: int | None = None) -> "Meld":
        """This meld with `card` laid off on it by `seat` (a wild: standing for `stand`)."""
        stands = self.stands if stand is None else tuple(sorted(self.stands + ((card, stand),)))
        return Meld(self.seat, sorted(self.cards + [card]), self.face_down, {**self.by, card: seat},
                    stands)


@dataclass(frozen=True)
class Event:
    """One step of the hand: the deal (`action` None), or an accepted Action with its seat
    and the card it moved that the action does not name (draw: the card drawn, seen by the
    drawer only; take: the discard taken, seen by all)."""
    action: Action | None = None
    card: int | None = None

    @property
    def seat(self) -> int | None:
        return None if self.action is None else self.action.seat

    @property
    def do(self) -> str:
        return "deal" if self.action is None else self.action.do


@dataclass(frozen=True)
class Line:
    payer: int          # seat or POT
    payee: int          # seat or POT
    chips: int
    why: str            # "ante", "base", "aces", "secret sets", "burned", "side pot", ...


@dataclass
class Hand:
    game: str
    players: int
    options: dict
    dealer: int
    hands: list[list[int]]
    stock: list[int]
    discard: list[int]
    melds: list[list[Meld]]
    turn: int | None                    # the seat expected to act; None when over
    phase: str                          # game-specific; "over" at the end
    pot_before: int = 0                 # side pot when the hand began
    streak: int | None = None           # Tong-its: seat whose next win takes the pot
    run: tuple[int, int] | None = None  # Tong-its: (seat, wins) of the winning run before the hand
    opened: list[bool] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    end: str | None = None              # the replay's end name once over
    winners: list[int] = field(default_factory=list)
    burned: list[int] = field(default_factory=list)
    shown: list[list[int]] | None = None  # every hand as shown at the end
    # Game-specific bookkeeping. Values must be immutable (ints, tuples, frozensets):
    # clone() copies the dict, not what is in it, so replace values, never mutate them.
    extra: dict = field(default_factory=dict)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def clone(self) -> "Hand":
        new = Hand.__new__(Hand)
        new.__dict__.update(self.__dict__)  # scalars shared, containers copied below
        new.hands = [h[:] for h in self.hands]
        new.stock = self.stock[:]
        new.discard = self.discard[:]
        new.melds = [ms[:] for ms in self.melds]
        new.opened = self.opened[:]
        new.events = self.events[:]
        new.lines = self.lines[:]
        new.winners = self.winners[:]
        new.burned = self.burned[:]
        new.extra = dict(self.extra)
        return new

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.players

    def pay(self, payer: int, payee: int, chips: int, why: str) -> None:
        if chips:
            self.lines.append(Line(payer, payee, chips, why))

    def net(self) -> list[int]:
        net = [0] * self.players
        for ln in self.lines:
            if ln.payer != POT:
                net[ln.payer] -= ln.chips
            if ln.payee != POT:
                net[ln.payee] += ln.chips
        return net

    def pot(self) -> int:
        return self.pot_before + sum(ln.chips for ln in self.lines if ln.payee == POT) \
            - sum(ln.chips for ln in self.lines if ln.payer == POT)
