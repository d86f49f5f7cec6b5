"""Shapes for the screen: cards, the buttons' plan, and the words of webapp/words dressed
for a page (cards as "7♥", or by name for screen readers; "You" for the reader's seat).

Only presentation lives here: it reads a view (a dict) and never touches game state.
Registered as Jinja filters and globals by `install(app)` (called from the blueprints).
A translation plugs in as app.extensions["baraha.translate"] (template -> template).
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from flask import current_app, has_app_context

from .. import words as W
from ..engine import cards as C
from ..engine.cards import parse
from ..engine.game import split_cards
from ..engine.melds import extensions
from ..engine.spreads import WILDS
from ..words import settlement as S

SUITS = {"C": ("♣", "clubs"), "D": ("♦", "diamonds"), "H": ("♥", "hearts"), "S": ("♠", "spades")}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine",
              "ten", "jack", "queen", "king")
SUIT_ORDER = "CDHS"

JOKER = {"text": "JK", "rank": "JK", "suit": "J", "sym": "★", "name": "joker", "red": False,
         "by_rank": 52, "by_suit": 52, "value": 0, "joker": True}


@lru_cache(maxsize=64)
def card(text: str) -> dict:
    """Everything a template needs to draw one card given as '7H' / '10S' (or Tonk's 'JK').
    Made once per card and shared (a partial asks for hundreds): read it, never change it."""
    if text == "JK":
        return JOKER
    rank, suit = text[:-1], text[-1]
    r = RANKS.index(rank)
    s = SUIT_ORDER.index(suit)
    sym, suit_name = SUITS[suit]
    return {"text": text, "rank": rank, "suit": suit, "sym": sym,
            "name": f"{RANK_NAMES[r]} of {suit_name}",
            "red": suit in "DH", "by_rank": r * 4 + s, "by_suit": s * 13 + r,
            "value": min(r + 1, 10), "joker": False}


def card_label(text: str) -> str:
    """'7♥' for button labels ('★' for the joker)."""
    if text == "JK":
        return JOKER["sym"]
    return text[:-1] + SUITS[text[-1]][0]


def as_label(stands) -> str:
    """A wild play's stand-ins, `{"JK": "6H"}`, as "★ as 6♥"."""
    t = _translate()(W.CATALOG["stand_in"])
    return ", ".join(t.format(wild=card_label(w), card=card_label(c)) for w, c in (stands or {}).items())


def as_spoken(stands) -> str:
    t = _translate()(W.CATALOG["stand_in"])
    return ", ".join(t.format(wild=card_name(w), card=card_name(c)) for w, c in (stands or {}).items())


def card_name(text: str) -> str:
    """A card as a screen reader says it, in the reader's language: "seven of hearts",
    "siyete ng puso" (card()["name"] stays the English one)."""
    t = _translate()
    if text == "JK":
        return t(W.CATALOG["card.joker"])
    return t(W.CATALOG["card.name"]).format(rank=t(W.CATALOG[f"rank.{text[:-1]}"]),
                                            suit=t(W.CATALOG[f"suit.{text[-1]}"]))


def is_wild(text: str, wilds: str | None) -> bool:
    """Whether a card is wild under the table's `wilds` (Tonk's house rule; Tong-its has none).
    A screen reader says so, as the star on it shows."""
    return bool(wilds) and parse(text) in WILDS[wilds]


def canon(texts) -> str:
    """Cards in deck order, space separated: how data-needs / data-with name a set of cards."""
    return " ".join(sorted(texts, key=lambda t: card(t)["by_suit"]))


def cards_label(texts) -> str:
    return " ".join(card_label(t) for t in texts)


def meld_label(texts) -> str:
    """A meld in a few characters: "9♦ 9♥ 9♠", or a long run as "7♣–Q♣"."""
    if not texts:
        return ""
    if len(texts) > 3 and len({t[-1] for t in texts}) == 1:
        return f"{card_label(texts[0])}–{card_label(texts[-1])}"
    return cards_label(texts)


def _translate():
    found = current_app.extensions.get("baraha.translate") if has_app_context() else None
    return found or W.english


def _words(view: dict, spoken: bool = False) -> W.Words:
    """The reader's words: its own seat is "You"; cards as labels, or names when spoken."""
    card, cards = (card_name, cards_spoken) if spoken else (card_label, cards_label)
    return W.Words(view, viewer=view.get("seat"), card=card, cards=cards, translate=_translate())


def name_of(view: dict, seat) -> str:
    """A seat as the boxes show it: its name, or "Seat 3" (seats are 1-based on screen)."""
    if seat is None:
        return _translate()(W.CATALOG["side_pot"])
    return W.seat_name([p.get("name") for p in view.get("players", [])], seat, _translate())


def lane_name(name: str) -> str:
    """A name as its lane's narrow label shows it: the first word whole and the others'
    initials ("Lola Remedios" -> "Lola R."); the boxes above show the whole name."""
    first, *rest = name.split() or [name]
    return " ".join([first] + [w[0] + "." for w in rest])


def name_said(view: dict, seat) -> str:
    """A seat as a sentence names it: a bot marked as one ("Tala (bot)"), as Words does."""
    return W.seat_name(W.said_names(view.get("players"), _translate()), seat, _translate())


def names(said) -> str:
    """People named in a sentence, in the reader's language: "Ana, Ben and Cy"."""
    return W.join(list(said), _translate())


def words(view: dict) -> dict:
    """The game's own words for buttons and labels (Tonk: spread, hit, book)."""
    return W.vocabulary(view.get("game"), _translate())


def story(view: dict) -> list[str]:
    """What happened this hand, one sentence per line, for the page."""
    return _words(view).lines()


def story_spoken(view: dict, last: int | None = None) -> list[str]:
    """The same lines for a screen reader: cards by name ("seven of hearts"); with `last`,
    those of the last `last` events only."""
    return _words(view, spoken=True).lines(last)


def turn_words(view: dict) -> str:
    """Whose turn it is, in one sentence (for the live region); a seat a bot plays for its
    person says so rather than "Your turn"."""
    me = next((p for p in view.get("players") or [] if p.get("seat") == view.get("seat")), {})
    if me.get("bot") and not view.get("result"):
        return _translate()(W.CATALOG["botted"]).format(level=me["bot"])
    return _words(view).turn()


def result_words(view: dict) -> dict:
    """The result box's sentences: who won, how it ended and why, who called and answered
    with what count, the antes as one line, and each payment named (antes left out)."""
    w = _words(view)
    r = view["result"]
    paid = [ln for ln in r["lines"] if ln["why"] != "ante"]
    return {"winners": w.winners() if r["winners"] else _translate()(W.CATALOG["nobody_won"]),
            "how": w.how(), "calls": S.calls(w), "because": S.because(w), "antes": S.antes(w),
            "house": S.house(w),
            "payments": [{"who": w.line(ln), "chips": ln["chips"], "what": S.payment(w, ln)}
                         for ln in paid]}


def shown_hands(view: dict) -> list[dict]:
    """Each seat's cards at the end, grouped: its exposed melds (the view's, secret sets
    face up once the hand is over), the melds the engine split the cards it still held into
    (each drawn as a meld on the table: a wild with what it stands for; `index` None, as
    nothing was laid off on them), and the deadwood apart."""
    r, out = view["result"], []
    for s, held in enumerate(r["hands"]):
        exposed = [m for m in view.get("melds") or [] if m["seat"] == s and m["cards"]]
        groups = [{**m, "seat": s, "index": None} for m in r["held"][s]]
        used = {t for m in groups for t in m["cards"]}
        out.append({"exposed": exposed, "melds": groups,
                    "deadwood": [t for t in held if t not in used]})
    return out


class Told:
    """What one reader is told of the hand at one version, for the page: the story's lines
    (the log, the last move), what a screen reader hears (the last events' lines, whose
    turn it is), the feed, and what each other player did since the reader's turn."""

    __slots__ = ("lines", "spoken", "turn", "feed", "since")

    def __init__(self, view: dict):
        words = _words(view)
        self.lines = story(view)
        self.spoken = story_spoken(view, 6)[-6:]
        self.turn = turn_words(view)
        over = view.get("result") is not None
        # The moves of the others since the reader's last turn (newest last), and what each
        # did, a phrase a move: ["drew", "melded 5♥ 6♥ 7♥", "discarded 9♣"].
        self.feed = [] if over else words.feed()
        self.since = {} if over else {p["seat"]: words.since_parts(p["seat"])
                                      for p in view.get("players") or [] if p["seat"] != view["seat"]}


def draw_called(view: dict) -> str:
    return _words(view).draw_called()


def refusal(view: dict | None, error) -> str:
    """A refusal for the page: worded with names from its facts when it has them."""
    view = view or {}
    text = _words(view).refusal(getattr(error, "code", None), getattr(error, "facts", None) or {},
                                getattr(error, "message", str(error)))
    return text[:1].upper() + text[1:]


def cards_spoken(texts) -> str:
    """"ten of clubs, jack of clubs and queen of clubs"."""
    return W.join([card_name(t) for t in texts], _translate())


SORTS = ("arrange", "rank", "suit")


def sort_of(cookie: str | None) -> str:
    return cookie if cookie in SORTS else "suit"


def best_melds(hand, game: str, options: dict) -> list[list[str]]:
    """The melds of the seat's own hand as the engine splits it under the table's rules
    (Tong-its: the least deadwood; Tonk the same, with its wilds and ace_high), biggest
    first, each as it reads: a run low to high with each wild where the card it stands
    for would be (5♦ 2♠ 7♦ for 2♠ as 6♦), a book by suit. Own cards only."""
    groups = []
    for cards, stands in split_cards(game, options, [parse(t) for t in hand or ()]):
        said = {C.text(w): C.text(c) for w, c in stands or ()}
        held = sorted(C.texts(cards), key=lambda t: card(said.get(t, t))["by_suit"])
        groups.append([held[i] for i in reading_order(held, said)])
    return sorted(groups, key=lambda m: (-len(m), card(m[0])["by_suit"]))


def arranged(hand, melds) -> list[str]:
    """"Arrange": the melds (best_melds) first, then the other cards by value, high to low
    (the ones to throw first are at the end)."""
    used = {t for m in melds for t in m}
    rest = sorted((t for t in hand or [] if t not in used),
                  key=lambda t: (-card(t)["value"], card(t)["by_rank"]))
    return [t for m in melds for t in m] + rest


def hand_in_order(hand, sort: str, melds) -> list[str]:
    """The seat's cards in the order chosen (Arrange, by rank or by suit): the DOM order,
    so that the screen, the keyboard and a screen reader go through them the same way."""
    if sort == "arrange":
        return arranged(hand, melds)
    key = "by_rank" if sort == "rank" else "by_suit"
    return sorted(hand or [], key=lambda t: card(t)[key])


def meld_marks(melds) -> dict[str, int]:
    """card -> number (1, 2...) of the meld (best_melds) it belongs to, for the marks; a
    wild has its meld's."""
    return {t: i + 1 for i, m in enumerate(melds) for t in m}


def deadwood(view: dict) -> int | None:
    """The seat's own count now (the engine's, carried by the view)."""
    return view.get("deadwood")


def strip_seat(action: dict) -> dict:
    """A legal action as the web form posts it (the seat comes from the cookie)."""
    return {k: v for k, v in action.items() if k != "seat"}


def action_json(action: dict) -> str:
    return json.dumps(strip_seat(action), separators=(",", ":"))


def move_id(action: dict) -> str:
    """An element id for a move's form, the same in every view that offers that move: a
    redraw (idiomorph) keeps a move's button as it is, and never turns it into another."""
    return "mv-" + hashlib.blake2s(action_json(action).encode(), digest_size=5).hexdigest()


def plan(view: dict) -> dict:
    """The legal actions grouped for the buttons: what needs a selection and what not. Of
    the ways to play a wild that make no difference (it stands in a book: any suit of that
    rank is the same), one button."""
    legal = [strip_seat(a) for a in view.get("legal") or []]
    out = {k: [] for k in ("draw", "take", "meld", "layoff", "discard", "tongit",
                           "call_draw", "fold", "challenge", "drop", "next", "other")}
    melds, seen = meld_by_key(view), set()
    for a in legal:
        if a.get("as"):
            same = _same_play(a, melds)
            if same in seen:
                continue
            seen.add(same)
        out.get(a.get("do"), out["other"]).append(a)
    return out


def _same_play(a: dict, melds: dict) -> str:
    """A wild's play with the suit it stands for left out where every card of the book it
    joins has one rank (the suit changes nothing)."""
    stands = a["as"]
    if a.get("do") == "layoff":
        m = melds.get((a["onto"]["seat"], a["onto"]["meld"])) or {}
        eff = [(m.get("as") or {}).get(c, c) for c in m.get("cards") or []]
    else:
        eff = [stands.get(c, c) for c in (a.get("cards") or []) + (a.get("with") or [])] + \
            ([a["card"]] if a.get("do") == "take" and a.get("card") else [])
    ranks = {c[:-1] for c in eff} | {c[:-1] for c in stands.values()}
    if len(ranks) == 1:
        stands = {w: c[:-1] for w, c in stands.items()}
    return json.dumps({**a, "as": stands}, sort_keys=True)


def taps(view: dict) -> dict:
    """Which piles this reader may tap: {"draw": bool, "take": bool} (_piles.html's parts)."""
    does = {a.get("do") for a in view.get("legal") or ()}
    return {"draw": "draw" in does, "take": "take" in does}


def no_dump_fits(view: dict) -> list[tuple[str, int, list[str]]]:
    """House rule no_dump, on your turn to discard: each card of your hand that you may
    not discard because it fits a meld on the table, as (card, meld's seat, meld's cards):
    the first meld it fits, in seat order, as the engine names it."""
    legal = view.get("legal") or ()
    if (view.get("game") != "tongits" or not (view.get("options") or {}).get("no_dump")
            or view.get("phase") != "play" or not legal):
        return []
    thrown = {a.get("card") for a in legal if a.get("do") == "discard"}
    out = []
    for c in view.get("hand") or ():
        if c in thrown:
            continue
        for m in view.get("melds") or ():
            if m["cards"] and parse(c) in extensions([parse(x) for x in m["cards"]]):
                out.append((c, m["seat"], m["cards"]))
                break
    return out


def no_dump_marks(view: dict) -> list[dict]:
    """The marks of the discard choice under no_dump: "7♥ fits Ben's 4♥ 5♥ 6♥: lay it off,
    or throw another card", shown when that card alone is picked."""
    w = _words(view)
    return [{"card": c, "words": w.refusal("no_dump", {"card": c, "owner": s, "cards": cards}, "")}
            for c, s, cards in no_dump_fits(view)]


def beneath(view: dict) -> str | None:
    """Tonk's take_from top_two: the card just beneath the top discard, which may be taken
    too; None otherwise."""
    pile = view.get("discard_pile") or []
    if (view.get("options") or {}).get("take_from") == "top_two" and len(pile) >= 2:
        return pile[-2]
    return None


def laid_off(view: dict) -> frozenset:
    """(seat, meld index, card) of every card laid off (Tonk: hit) on a meld this hand."""
    return frozenset((e["onto"]["seat"], e["onto"]["meld"], e["card"])
                     for e in view.get("events") or ()
                     if e.get("do") == "layoff" and e.get("onto") and e.get("card"))


def meld_faces(m: dict, laid: frozenset) -> list[tuple[str, str | None, bool]]:
    """A meld's face-up cards as they lie: (card, what a wild stands for, laid off), a run
    in rank order with each wild at the place it stands for (2♠ as 6♠ between 5♠ and 7♠)."""
    stands = m.get("as") or {}
    cards = m.get("cards") or []
    return [(cards[i], stands.get(cards[i]), (m["seat"], m["index"], cards[i]) in laid)
            for i in reading_order(cards, stands)]


def reading_order(cards: list[str], stands: dict) -> list[int]:
    """The places of a meld's cards in the order it reads: a run by rank, each wild at the
    rank it stands for (`stands`: wild -> card), an ace above a king after it (A..K from
    the ace up); a book as given."""
    eff = [stands.get(t, t) for t in cards]
    ranks = [RANKS.index(e[:-1]) if e != "JK" else -1 for e in eff]
    if 12 in ranks and 0 in ranks and 1 not in ranks:     # an ace above the king
        ranks = [13 if r == 0 else r for r in ranks]
    if len(set(ranks)) != len(ranks):
        return list(range(len(cards)))
    return sorted(range(len(cards)), key=lambda i: ranks[i])


def meld_by_key(view: dict) -> dict:
    return {(m["seat"], m["index"]): m for m in view.get("melds") or []}


def install(app) -> None:
    if app.jinja_env.globals.get("_baraha_present"):
        return
    app.jinja_env.globals.update(
        _baraha_present=True, card=card, name_of=name_of, name_said=name_said, words=words, plan=plan,
        action_json=action_json, move_id=move_id, result_words=result_words, draw_called=draw_called,
        meld_by_key=meld_by_key, lane_name=lane_name, hand_in_order=hand_in_order, cards_spoken=cards_spoken,
        as_spoken=as_spoken, card_name=card_name, arranged=arranged, meld_marks=meld_marks,
        best_melds=best_melds,
        draw_blocked=draw_blocked, deadwood=deadwood, shown_hands=shown_hands, taps=taps,
        no_dump_marks=no_dump_marks, beneath=beneath,
        laid_off=laid_off, meld_faces=meld_faces, is_wild=is_wild)
    app.jinja_env.filters.update(card_label=card_label, cards_label=cards_label, canon=canon,
                               meld_label=meld_label, as_label=as_label, names=names)


def draw_blocked(view: dict) -> str | None:
    """Why Call Draw is not offered on your turn, when a lay-off on your melds is why
    (house rule sapaw_blocks_draw): "Ben laid off on your meld: you may call Draw on your
    next turn". From the seat's own view only (its legal moves and its events)."""
    if view.get("game") != "tongits" or view.get("turn") != view.get("seat") or view.get("phase") != "draw":
        return None
    me = view.get("seat")
    player = next((p for p in view.get("players") or [] if p.get("seat") == me), {})
    legal = {a.get("do") for a in view.get("legal") or []}
    if "call_draw" in legal or not player.get("opened") or "draw" not in legal:
        return None
    for e in reversed(view.get("events") or []):
        if e.get("do") == "layoff" and (e.get("onto") or {}).get("seat") == me:
            whole = (view.get("options") or {}).get("sapaw_blocks_draw") == "hand"
            return _words(view).draw_blocked(e["seat"], whole)
    return None
