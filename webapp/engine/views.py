"""What one seat may know: the only place where hidden cards are removed.

Templates, JSON, bots and logs see a View, never a Hand. A view holds the seat's own hand,
everyone's exposed melds (a secret set shows `cards: None` to everyone but its owner until
the hand is over, then face up to everyone), the
discard pile, card counts, and the hand's events as this seat may know them (another
seat's draw without its card, a reshuffled stock never). The stock's order never appears;
other hands appear only in `result`, once the hand is over.

One shape for every caller: the table passes what only it knows (TableFacts: code,
version, names, chips, each event's version, its own actions) and a `describe` that words
the log; bots and tests call view_for(hand, seat) and get the same keys with neutral
values. Before the first deal, view_for(None, seat, facts) gives the waiting view.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, TypedDict

from . import game as G
from .cards import text, texts
from .hand import POT, Event, Hand


class PlayerView(TypedDict):
    seat: int               # 0-based in data; screens show seat + 1
    name: str | None
    bot: str | None         # the bot's level, or None for a person
    connected: bool
    cards: int              # how many cards the seat holds
    opened: bool
    chips: int              # the running ledger
    ready: bool             # asked for the next hand
    away: bool              # the turn timer played its turns, or its phone is gone a while


class MeldView(TypedDict):
    seat: int
    index: int
    cards: list[str] | None     # None: a secret set seen by someone else
    face_down: bool


class View(TypedDict):
    code: str | None
    game: str
    version: int
    seat: int | None        # None: a watcher's view
    options: dict
    players: list[PlayerView]
    dealer: int | None
    turn: int | None
    phase: str              # the game's phase, "waiting" before the first deal, "over"
    hand: list[str]         # this seat's cards, sorted
    melds: list[MeldView]
    discard_top: str | None
    discard_pile: list[str]  # bottom first
    stock: int
    pot: int
    legal: list[dict]       # actions as a client sends them (no seat)
    result: dict | None
    events: list[dict]      # API.md "Events", as this seat may know them
    log: list[str]          # sentences made from events (webapp/words.py)
    hand_number: int
    host: int | None
    closed: bool
    deadwood: int | None    # this seat's own count now (None before the deal)
    most_cards: int         # the most cards one hand can hold
    deal_commitment: str | None     # the deal's seal (API.md "The evening"), None if unsealed
    deadline: str | None    # the turn timer: when the acting seat's time runs out (ISO, UTC)


@dataclass(frozen=True)
class SeatFacts:
    name: str | None = None
    bot: str | None = None
    connected: bool = False
    chips: int | None = None    # None: this hand's net
    ready: bool = False
    away: bool = False


@dataclass(frozen=True)
class TableFacts:
    """What the table adds to a view; the engine cannot know it."""
    game: str
    players: int
    options: dict
    code: str | None = None
    version: int = 0
    hand_number: int = 0
    host: int | None = None
    closed: bool = False
    seats: tuple[SeatFacts, ...] = ()
    versions: tuple[int, ...] = ()      # the table's version once each event was applied
    may_act: bool = True                # False: the engine's legal actions are not offered
    offered: tuple[dict, ...] = ()      # the table's own actions open to this seat
    deal_commitment: str | None = None  # the SHA-256 sealing this hand's deck
    seals: dict | None = None           # event index -> commitment of a reshuffled stock
    watcher: bool = False               # a watcher's view: no seat, no moves (`seat`: the
                                        # seat it sits behind, whose hand it sees, or None)
    deadline: str | None = None         # the turn timer's (ISO 8601, UTC)
    auto: frozenset = frozenset()       # versions of the moves the server made for a seat


def view_for(hand: Hand | None, seat: int | None, facts: TableFacts | None = None,
             describe: Callable[[View], list[str]] | None = None) -> View:
    """The view of `seat` (0-based; None: nobody's hand, as a watcher sees the table);
    `describe(view)` words its log (none by default). A watcher (facts.watcher) gets no
    moves, and `seat` None however it sits: `behind` says whose hand it sees."""
    if facts is None:
        facts = TableFacts(hand.game, hand.players, hand.options)
    seats = facts.seats or (SeatFacts(),) * facts.players
    net = hand.net() if hand is not None else [0] * facts.players
    dealt = hand is not None and seat is not None
    legal = [_sent(a._replace(stock=None).to_json()) for a in G.legal_actions(hand, seat)] \
        if dealt and facts.may_act and not facts.watcher else []
    view: View = {
        "code": facts.code,
        "game": facts.game,
        "version": facts.version,
        "seat": None if facts.watcher else seat,
        "options": dict(facts.options),
        "players": [{"seat": s, "name": f.name, "bot": f.bot,
                     "connected": f.connected or bool(f.bot),
                     "cards": len(hand.hands[s]) if hand is not None else 0,
                     "opened": hand.opened[s] if hand is not None else False,
                     "chips": net[s] if f.chips is None else f.chips, "ready": f.ready,
                     "away": f.away}
                    for s, f in enumerate(seats)],
        "dealer": hand.dealer if hand is not None else None,
        "turn": hand.turn if hand is not None else None,
        "phase": hand.phase if hand is not None else "waiting",
        "hand": texts(sorted(hand.hands[seat])) if dealt else [],
        "melds": [_meld(m, i, seat, hand.over)
                  for ms in (hand.melds if hand is not None else []) for i, m in enumerate(ms)],
        "discard_top": text(hand.discard[-1]) if hand is not None and hand.discard else None,
        "discard_pile": texts(hand.discard) if hand is not None else [],
        "stock": len(hand.stock) if hand is not None else 0,
        "pot": hand.pot() if hand is not None else 0,
        "legal": legal + ([] if facts.watcher else [dict(a) for a in facts.offered]),
        "result": result_of(hand) if hand is not None and hand.over else None,
        "events": events_for(hand, seat, facts.versions, facts.seals, facts.auto) if hand is not None else [],
        "log": [],
        "hand_number": facts.hand_number,
        "host": facts.host,
        "closed": facts.closed,
        "deadwood": G.deadwood(hand)[seat] if dealt else None,
        "most_cards": G.most_cards(facts.game, facts.options),
        "deal_commitment": facts.deal_commitment if hand is not None else None,
        "deadline": facts.deadline,
    }
    if facts.watcher:
        view["behind"] = seat
    if describe is not None:
        view["log"] = describe(view)
    return view


def _meld(m, i: int, seat: int | None, over: bool) -> dict:
    """One meld as `seat` sees it: a secret set is face down to the others until the end."""
    out = {"seat": m.seat, "index": i,
           "cards": None if m.face_down and m.seat != seat and not over else texts(m.cards),
           "face_down": m.face_down}
    if m.stands:            # Tonk wilds: what each stands for, as the action's `as` says it
        out["as"] = _as(m.stands)
    return out


def _held(cards, stands) -> dict:
    """A meld still held at the end, as a meld on the table is shown (`as`: its wilds)."""
    out = {"cards": texts(cards)}
    if stands:
        out["as"] = _as(stands)
    return out


def _as(stands) -> dict:
    return {text(w): text(c) for w, c in stands}


def _sent(action: dict) -> dict:
    """An action as a client sends it: the seat comes from the token."""
    action.pop("seat", None)
    return action


def events_for(hand: Hand, seat: int | None, versions=(), seals=None, auto=frozenset()) -> list[dict]:
    """The hand's events as `seat` may know them, each with its version when known.
    `seals`: the commitment each reshuffling draw carries (event index -> hex); `auto`: the
    versions of the moves the server made for a seat (the turn timer)."""
    out = []
    for i, e in enumerate(hand.events):
        shown = event_for(e, seat, hand.dealer)
        version = versions[i] if i < len(versions) else None
        if version is not None:
            shown["version"] = version
            if version in auto:      # decided as the move is made, before any view
                shown["auto"] = True
        if seals and i in seals:        # a reshuffled stock's seal, for every seat
            shown["commitment"] = seals[i]
        out.append(shown)
    return out


def event_for(e: Event, seat: int | None, dealer: int) -> dict:
    """One event, field by field (API.md "Events"). Fields a game adds to its actions are
    shown as sent, except a reshuffling draw's `stock`, which nobody may see."""
    if e.action is None:
        return {"do": "deal", "dealer": dealer}
    a = e.action
    out = {"seat": a.seat, "do": a.do}
    # The card drawn is the drawer's alone; the discard taken was face up for everyone.
    if e.card is not None and (a.do == "take" or a.seat == seat):
        out["card"] = text(e.card)
    hidden = a.seat != seat and bool(a.face_down)
    for k, v in a.to_json().items():
        if k in ("seat", "do", "stock"):
            continue
        out[k] = None if hidden and k in ("cards", "as") else v
    return out


def result_of(hand: Hand) -> dict:
    """A finished hand: the replay fields, every hand as shown, and the settlement lines."""
    out = G.outcome(hand)
    shown = hand.shown if hand.shown is not None else hand.hands
    house = {}
    if hand.game == "tongits":      # what the house rules of the apps did to the payments
        house = {"times": hand.extra["times"], "doubled": hand.extra["doubled"],
                 "run": out.get("run")}
    return house | {
        "end": out["end"], "winners": out["winners"], "deadwood": out["deadwood"],
        "burned": out["burned"], "net": out["net"], "pot": out["pot"],
        "hands": [texts(sorted(h)) for h in shown],
        "held": [[_held(cards, stands) for cards, stands in G.split_cards(hand.game, hand.options, h)]
                 for h in shown],
        "lines": [{"from": None if ln.payer == POT else ln.payer,
                   "to": None if ln.payee == POT else ln.payee,
                   "chips": ln.chips, "why": ln.why} for ln in hand.lines],
    }
