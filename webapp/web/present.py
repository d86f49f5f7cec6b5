"""Words and shapes for the screen: card names, each game's vocabulary, log lines.

Only presentation lives here: it reads a view (a dict) and never touches game state.
Registered as Jinja filters and globals by `install(app)` (called from the blueprints).
"""
from __future__ import annotations

import json
import re
from functools import lru_cache

SUITS = {"C": ("♣", "clubs"), "D": ("♦", "diamonds"), "H": ("♥", "hearts"), "S": ("♠", "spades")}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine",
              "ten", "jack", "queen", "king")
SUIT_ORDER = "CDHS"

# Each game's own words on screen (rules/common.md: Tong-its says meld/set/lay off,
# Tonk says spread/book/hit).
WORDS = {
    "tongits": {"game": "Tong-its", "meld": "Meld", "melds": "melds", "set": "set",
                "layoff": "Lay off", "laid_off": "lay off", "count": "deadwood",
                "secret": "Meld face down (secret set)"},
    "tonk": {"game": "Tonk", "meld": "Spread", "melds": "spreads", "set": "book",
             "layoff": "Hit", "laid_off": "hit", "count": "count", "secret": ""},
}

END_WORDS = {
    "tongits": {"tongit": "Tongit", "draw": "Draw called, nobody challenged",
                "challenge": "Draw called and challenged", "stock": "the stock ran out",
                "void": "void hand: the stock ran out and nobody opened"},
    "tonk": {"deal_tonk": "tonk on the deal", "tonk": "tonked out", "out": "went out",
             "drop": "drop", "caught": "dropped and was caught", "stock": "the stock ran out",
             "void": "void hand"},
}

WHY_WORDS = {"ante": "ante to the side pot", "side pot": "takes the side pot"}

_CARD = re.compile(r"\b(10|[2-9AJQK])([CDHS])\b")
_CARDS = re.compile(r"\b(?:10|[2-9AJQK])[CDHS](?: (?:10|[2-9AJQK])[CDHS])*\b")
_LAID_OFF = re.compile(r"laid off (\S+) on (.+?) meld\b")
_SEAT = re.compile(r"\bseat (\d+)('s)?")


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
    return ", ".join(f"{card_label(w)} as {card_label(c)}" for w, c in (stands or {}).items())


def as_spoken(stands) -> str:
    return ", ".join(f"{card(w)['name']} as {card(c)['name']}" for w, c in (stands or {}).items())


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


def name_of(view: dict, seat) -> str:
    if seat is None:
        return "the side pot"
    for p in view.get("players", []):
        if p.get("seat") == seat and p.get("name"):
            return p["name"]
    return f"Seat {seat + 1}"


def words(view: dict) -> dict:
    return WORDS.get(view.get("game"), WORDS["tongits"])


def _engine_words(view: dict, line: str, cards) -> str:
    """Dress the engine's words of a log line, never a player's name inside it: names
    stand aside as private-use placeholders meanwhile, so a player called "AS" stays "AS"."""
    names = sorted({p["name"] for p in view.get("players", []) if p.get("name")},
                   key=len, reverse=True)
    if names:
        line = re.sub("|".join(map(re.escape, names)),
                      lambda m: f"\ue000{names.index(m.group())}\ue001", line)
    line = cards(_people(view, line))
    return re.sub("\ue000(\\d+)\ue001", lambda m: names[int(m.group(1))], line)


def _people(view: dict, words: str) -> str:
    """Seat numbers left in the engine's words become names; Tonk's own words."""
    def seat(m):
        who = name_of(view, int(m.group(1)))
        return who + ("'s" if m.group(2) else "")

    words = _SEAT.sub(seat, words)
    if view.get("game") == "tonk":
        words = _LAID_OFF.sub(lambda m: f"hit {m.group(2)} spread with {m.group(1)}", words)
        words = words.replace("melded ", "spread ").replace(" meld", " spread")
    return words


def _who(view: dict) -> tuple:
    """All that the words of a line depend on besides the line: the game and the names."""
    return view.get("game"), tuple((p.get("seat"), p.get("name")) for p in view.get("players", []))


def _as_view(who: tuple) -> dict:
    return {"game": who[0], "players": [{"seat": s, "name": n} for s, n in who[1]]}


# Every partial words the whole log again, for each seat: each line is worded once (per
# game and names) and remembered. Bounded; a line is a few dozen bytes.
@lru_cache(maxsize=8192)
def _humanized(who: tuple, line: str) -> str:
    return _engine_words(_as_view(who), line,
                         lambda w: _CARD.sub(lambda m: m.group(1) + SUITS[m.group(2)][0], w))


@lru_cache(maxsize=8192)
def _spoken(who: tuple, line: str) -> str:
    return _engine_words(_as_view(who), line,
                         lambda w: _CARDS.sub(lambda m: cards_spoken(m.group(0).split()), w))


def humanize(view: dict, line: str) -> str:
    """Engine words for people: seat numbers become names, 7H becomes 7♥, Tonk words."""
    return _humanized(_who(view), line)


def spoken(view: dict, line: str) -> str:
    """A log line for a screen reader: names as on screen, cards by name ("7H" becomes
    "seven of hearts"), so that nothing is read out as "7 black heart suit"."""
    return _spoken(_who(view), line)


def cards_spoken(texts) -> str:
    """"ten of clubs, jack of clubs and queen of clubs"."""
    names = [card(t)["name"] for t in texts]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


SORTS = ("arrange", "rank", "suit")


def sort_of(cookie: str | None) -> str:
    return cookie if cookie in SORTS else "suit"


def best_melds(hand) -> list[list[str]]:
    """The melds of the best split of the seat's own hand (Tong-its: the split with the
    least deadwood; Tonk the same runs and books), each in deck order. Own cards only."""
    try:
        from ..engine import cards as C, melds
        return [C.texts(m) for m in melds.best_split([C.parse(t) for t in hand or []])[1]]
    except Exception:   # presentation only: never break a page over a hint
        return []


def arranged(hand) -> list[str]:
    """"Arrange": the melds of the best split first (biggest first), then the other cards
    by value, high to low (the ones to throw first are at the end)."""
    groups = sorted(best_melds(hand), key=lambda m: (-len(m), card(m[0])["by_suit"]))
    used = {t for m in groups for t in m}
    rest = sorted((t for t in hand or [] if t not in used),
                  key=lambda t: (-card(t)["value"], card(t)["by_rank"]))
    return [t for m in groups for t in m] + rest


def hand_in_order(hand, sort: str) -> list[str]:
    """The seat's cards in the order chosen (Arrange, by rank or by suit): the DOM order,
    so that the screen, the keyboard and a screen reader go through them the same way."""
    if sort == "arrange":
        return arranged(hand)
    key = "by_rank" if sort == "rank" else "by_suit"
    return sorted(hand or [], key=lambda t: card(t)[key])


def meld_marks(hand) -> dict[str, int]:
    """card -> number (1, 2...) of the best-split meld it belongs to, for the marks."""
    groups = sorted(best_melds(hand), key=lambda m: (-len(m), card(m[0])["by_suit"]))
    return {t: i + 1 for i, m in enumerate(groups) for t in m}


def turn_words(view: dict) -> str:
    """Whose turn it is, in one sentence (for the live region)."""
    if view.get("result"):
        r = view["result"]
        who = [("you" if s == view.get("seat") else name_of(view, s)) for s in r.get("winners") or []]
        if not who:
            return "The hand is over: nobody won."
        verb = " win." if who == ["you"] or len(who) > 1 else " wins."
        return "The hand is over: " + " and ".join(who) + verb
    turn = view.get("turn")
    if turn is None:
        return ""
    mine = turn == view.get("seat")
    if view.get("phase") == "answer":
        return "Your answer to the Draw." if mine else f"{name_of(view, turn)} is answering the Draw."
    return "Your turn." if mine else f"{name_of(view, turn)}'s turn."


def deadwood(view: dict) -> int | None:
    """The seat's own count now, shown under the hand (from its own cards only)."""
    hand = view.get("hand") or []
    if view.get("game") == "tonk":
        courts = (view.get("options") or {}).get("face_values") == "11-13"
        return sum(card(t)["by_rank"] // 4 + 1 if courts and 40 <= card(t)["by_rank"] < 52
                   else card(t)["value"] for t in hand)
    try:
        from ..engine import cards as C, melds
        return melds.deadwood([C.parse(t) for t in hand])
    except Exception:   # presentation only: never break a page over a hint
        return None


def last_log(view: dict, words: str) -> str | None:
    for line in reversed(view.get("log") or []):
        if words in line:
            return line
    return None


def strip_seat(action: dict) -> dict:
    """A legal action as the web form posts it (the seat comes from the cookie)."""
    return {k: v for k, v in action.items() if k != "seat"}


def action_json(action: dict) -> str:
    return json.dumps(strip_seat(action), separators=(",", ":"))


def plan(view: dict) -> dict:
    """The legal actions grouped for the buttons: what needs a selection and what not."""
    legal = [strip_seat(a) for a in view.get("legal") or []]
    out = {k: [] for k in ("draw", "take", "meld", "layoff", "discard", "tongit",
                           "call_draw", "fold", "challenge", "drop", "next", "other")}
    for a in legal:
        out.get(a.get("do"), out["other"]).append(a)
    return out


def meld_by_key(view: dict) -> dict:
    return {(m["seat"], m["index"]): m for m in view.get("melds") or []}


def install(app) -> None:
    if app.jinja_env.globals.get("_baraha_present"):
        return
    app.jinja_env.globals.update(
        _baraha_present=True, card=card, name_of=name_of, words=words, humanize=humanize,
        deadwood=deadwood, plan=plan, action_json=action_json, END_WORDS=END_WORDS,
        WHY_WORDS=WHY_WORDS, last_log=last_log, meld_by_key=meld_by_key, spoken=spoken,
        turn_words=turn_words, hand_in_order=hand_in_order, cards_spoken=cards_spoken,
        as_spoken=as_spoken, arranged=arranged, meld_marks=meld_marks, draw_blocked=draw_blocked)
    app.jinja_env.filters.update(card_label=card_label, cards_label=cards_label, canon=canon,
                               meld_label=meld_label, as_label=as_label)


_ONTO_MINE = "laid off "


def draw_blocked(view: dict) -> str | None:
    """Why Call Draw is not offered on your turn, when a lay-off on your melds is why
    (house rule sapaw_blocks_draw): "Ben laid off on your meld: you may call Draw on your
    next turn". From the seat's own view only (its legal moves and the public log)."""
    if view.get("game") != "tongits" or view.get("turn") != view.get("seat") or view.get("phase") != "draw":
        return None
    me = view.get("seat")
    player = next((p for p in view.get("players") or [] if p.get("seat") == me), {})
    legal = {a.get("do") for a in view.get("legal") or []}
    if "call_draw" in legal or not player.get("opened") or "draw" not in legal:
        return None
    mine = name_of(view, me)
    onto = (f" on {mine}'s meld", " on your meld", " on their own meld")
    for line in reversed(view.get("log") or []):
        if _ONTO_MINE not in line or not line.endswith(onto):
            continue
        who = line.split(" laid off ", 1)[0]
        if line.endswith(" on their own meld") and who != mine:
            continue                  # someone else's own meld
        whole = (view.get("options") or {}).get("sapaw_blocks_draw") == "hand"
        later = "you may not call Draw in this hand" if whole else "you may call Draw on your next turn"
        if who == mine:
            return f"You laid off on your own meld: {later}."
        return f"{who} laid off on your meld: {later}."
    return None
