"""Sentences for people, made from a view's events and result: the only place with words.

Every sentence is one whole template with named placeholders, kept in catalog.py, so that
a second language is a second catalog (gettext: `pybabel extract -k N_`), never new logic.
A caller chooses:
  translate  template -> template in the reader's language (default: English as written)
  viewer     the seat reading it: its own moves read "You ..." / "your meld" (None: a
             program's log, every seat by name)
  card/cards how cards read: card texts ("7H") for programs, labels ("7♥") on screen,
             names ("seven of hearts") for screen readers
Seats are 0-based in data and "Seat 1" to "Seat 6" in words.
"""
from __future__ import annotations

from typing import Callable

from .catalog import CATALOG

Translate = Callable[[str], str]


def english(template: str) -> str:
    return template


def seat_name(names, seat: int | None, translate: Translate = english) -> str:
    """A seat's name, or "Seat 3" (1-based) when nobody named it."""
    if seat is None:
        return translate(CATALOG["table"])
    if names and seat < len(names) and names[seat]:
        return names[seat]
    return translate(CATALOG["seat"]).format(number=seat + 1)


def said_names(players, translate: Translate = english) -> list:
    """The seats' names as sentences say them: a bot's marked as one ("Tala (bot)")."""
    bot = translate(CATALOG["bot_name"])
    return [bot.format(name=p["name"]) if p.get("bot") and p.get("name") else p.get("name")
            for p in players or []]


def join(items: list[str], translate: Translate = english) -> str:
    """"A", "A and B", "A, B and C"."""
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        return translate(CATALOG["list.two"]).format(first=items[0], last=items[1])
    return translate(CATALOG["list.more"]).format(first=items[0], rest=join(items[1:], translate))


def _labels(game: str) -> list[tuple[str, str]]:
    prefix = f"{game}.label."
    return [(k[len(prefix):], v) for k, v in CATALOG.items() if k.startswith(prefix)]


_LABELS = {game: _labels(game) for game in ("tongits", "tonk")}


def vocabulary(game: str | None, translate: Translate = english) -> dict:
    """A game's own words for buttons and labels: {"meld": "Spread", ...} in Tonk."""
    return {k: translate(v) for k, v in _LABELS.get(game or "", _LABELS["tongits"])}


class Words:
    """The sentences of one view for one reader (see the module's docstring)."""

    def __init__(self, view, *, viewer: int | None = None, card=None, cards=None,
                 translate: Translate | None = None):
        self.view, self.viewer = view, viewer
        self.game = view.get("game") or "tongits"
        self.t = translate or english
        self.card = card or (lambda c: c)
        self._cards = cards or (lambda cs: " ".join(self.card(c) for c in cs))
        # A bot is never taken for a person: every sentence names it "Tala (bot)".
        self.names = said_names(view.get("players"), self.t)
        over = view.get("result") is not None
        melded = {c for m in view.get("melds") or [] for c in m["cards"] or []}
        self.visible = None if over else \
            set(view.get("hand") or []) | set(view.get("discard_pile") or []) | melded
        self._window = None
        self._said = None
        self._freed = None

    # -- pieces
    def template(self, key: str, you: bool = False) -> str:
        keys = (f"{self.game}.{key}.you", f"{key}.you") if you else ()
        for k in keys + (f"{self.game}.{key}", key):
            if k in CATALOG:
                return self.t(CATALOG[k])
        raise KeyError(key)

    def say(self, key: str, seat: int | None = None, **facts) -> str:
        you = seat is not None and seat == self.viewer
        return self.template(key, you).format(name=self.name(seat), **facts)

    def name(self, seat: int | None) -> str:
        if seat is not None and seat == self.viewer:
            return self.t(CATALOG["you"])
        return seat_name(self.names, seat, self.t)

    def a_card(self, c: str) -> str:
        # A card once seen can be hidden again (Tonk: a discard taken into a hand): the
        # words then say "a card", so no sentence names a card hidden from its reader now.
        if self.visible is None or c in self.visible:
            return self.card(c)
        return self.t(CATALOG["a_card"])

    def cards(self, cs) -> str:
        return self._cards(list(cs))

    def names_of(self, seats) -> str:
        return self.join([self.name(s) for s in seats])

    def join(self, items: list[str]) -> str:
        return join(items, self.t)

    # -- the story of the hand
    def lines(self, last: int | None = None) -> list[str]:
        """The story, a sentence or more per event; with `last`, only the sentences of the
        last `last` events (at least that many lines: the tail of the whole story)."""
        events = self.view.get("events") or []
        empty = self._empty_draw(events)
        notice = self._stock_notice(events, empty)
        start = 0 if last is None else max(0, len(events) - last)
        said = self.said()[start:] if last is None else [self.event(e) for e in events[start:]]
        # Folds unasked follow answers to a Draw: only while one is answered, or after.
        answered = self.game == "tongits" and (self.view.get("phase") == "answer" or
                                               self.view.get("result") is not None)
        if empty is None and notice is None and not answered:
            return said + self.ending(events)      # a sentence per event, as said
        out = []
        for i, e in enumerate(events[start:], start):
            out.append(self.say("draw.empty", e["seat"]) if i == empty else said[i - start])
            out += self._auto_folds(events, i)
            if i == notice:
                out.append(self.say("stock_used"))
        return out + self.ending(events)

    def said(self) -> list[str]:
        """One sentence per event of the hand, in order (Words.event), worded once."""
        if self._said is None:
            self._said = [self.event(e) for e in self.view.get("events") or []]
        return self._said

    def event(self, e: dict) -> str:
        return self._event(e)

    def _event(self, e: dict) -> str:
        words = self._plain(e)
        # The turn timer ran out and the server moved for the seat (tables/timer.py).
        return self.say("auto", e.get("seat"), event=words) if e.get("auto") else words

    def _plain(self, e: dict) -> str:
        do, seat = e["do"], e.get("seat")
        if do == "deal":
            return self.say("deal", e["dealer"])
        if do == "draw":
            return self.say("draw.card", seat, card=self.a_card(e["card"])) if "card" in e \
                else self.say("draw", seat)
        if do == "take":
            melded = sorted(e.get("with") or [], key=_order) + [e["card"]]
            if self.game == "tongits" or e.get("with"):
                key = "take.with" if self.game == "tonk" else "take"
                return self.say(key, seat, card=self.card(e["card"]),
                                cards=self.stood(e, self.cards(sorted(melded, key=_order))))
            return self.say("take", seat, card=self.card(e["card"]))
        if do == "meld" and e.get("face_down"):
            return self.say("secret.cards", seat, cards=self.cards(e["cards"])) \
                if e.get("cards") else self.say("secret", seat)
        if do == "meld":
            return self.say("meld", seat, cards=self.stood(e, self.cards(sorted(e["cards"], key=_order))))
        if do == "layoff":
            owner = e["onto"]["seat"]
            key = "layoff.own" if owner == seat else \
                "layoff.yours" if owner == self.viewer else "layoff"
            line = self.say(key, seat, card=self.stood(e, self.card(e["card"])), owner=self.name(owner))
            wild = self.freed_wilds().get(id(e))
            return line if wild is None else line + " " + self.say("wild_back", seat, wild=self.card(wild))
        if do == "discard":
            return self.say("discard", seat, card=self.card(e["card"]))
        if f"{do}" in CATALOG:
            return self.say(do, seat)
        return self.say("other", seat, do=do)

    def freed_wilds(self) -> dict:
        """id(hit event) -> the wild it took back: a natural hit on the place a wild stood
        for sends that wild to the hitter's hand (Tonk's house rule wilds)."""
        if self._freed is None:
            self._freed, stands, count = {}, {}, {}
            for e in self.view.get("events") or ():
                if e.get("do") == "meld":
                    seat = e.get("seat")
                    index = count[seat] = count.get(seat, -1) + 1
                    stands[(seat, index)] = dict(e.get("as") or {})
                elif e.get("do") == "take" and e.get("with"):
                    seat = e.get("seat")
                    index = count[seat] = count.get(seat, -1) + 1
                    stands[(seat, index)] = dict(e.get("as") or {})
                elif e.get("do") == "layoff" and e.get("onto"):
                    on = stands.setdefault((e["onto"]["seat"], e["onto"]["meld"]), {})
                    on.update(e.get("as") or {})
                    wild = next((w for w, c in on.items() if c == e.get("card")), None)
                    if wild is not None:
                        del on[wild]
                        self._freed[id(e)] = wild
        return self._freed

    def stood(self, e: dict, cards: str) -> str:
        """Cards played with Tonk's wilds name what each wild stands for: "5♥ ★ 7♥ (★ as 6♥)"."""
        if not e.get("as"):
            return cards
        stands = [self.t(CATALOG["stand_in"]).format(wild=self.card(w), card=self.card(c))
                  for w, c in e["as"].items()]
        return self.t(CATALOG["stand_ins"]).format(cards=cards, stand_ins=self.join(stands))

    def _empty_draw(self, events) -> int | None:
        """Tonk: a last draw that ended the play found the stock empty."""
        r = self.view.get("result")
        if self.game == "tonk" and r and events and events[-1]["do"] == "draw" \
                and r["end"] in ("stock", "void"):
            return len(events) - 1
        return None

    def _stock_notice(self, events, empty) -> int | None:
        """After the draw that took the stock's last card, the table says so."""
        if self.view.get("stock") != 0:
            return None
        draws = [i for i, e in enumerate(events) if e["do"] == "draw" and i != empty]
        return draws[-1] if draws else None

    def _auto_folds(self, events, i) -> list[str]:
        """Tong-its: a Draw passes over seats that have not opened; they fold unasked."""
        e = events[i]
        if self.game != "tongits" or e["do"] not in _ANSWERS:
            return []
        caller = next((x["seat"] for x in reversed(events[:i + 1]) if x["do"] == "call_draw"), None)
        players = self.view.get("players") or []
        out, s = [], (e["seat"] + 1) % len(players)
        while caller is not None and s != caller and not players[s]["opened"]:
            out.append(self.say("fold.unopened", s))
            s = (s + 1) % len(players)
        return out

    def ending(self, events) -> list[str]:
        r = self.view.get("result")
        if not r:
            return []
        end, winners, counts = r["end"], r["winners"], r["deadwood"]
        if end == "void":
            deal_only = self.game == "tonk" and len(events) <= 1
            if self.void_tie():
                low = min(counts[s] for s in self.compared())
                return [self.say("void.tie", count=low)]
            return [self.say("void.deal" if deal_only else "void")]
        if end == "caught":
            dropper = next((e["seat"] for e in reversed(events) if e["do"] == "drop"), None)
            if dropper is None:
                return []
            mine = counts[dropper]
            catchers = [self.template("catcher." + ("tie" if counts[s] == mine else "lower"),
                                      s == self.viewer).format(name=self.name(s), count=counts[s])
                        for s in range(len(counts)) if s != dropper and counts[s] <= mine]
            return [self.say("caught", dropper, count=mine, catchers=self.join(catchers))]
        if end == "stock" and self.game == "tonk" and not winners:
            return [self.say("tied")]
        return [self.say(f"won.{end}", w, count=counts[w]) for w in winners]

    # -- since the reader's last turn
    def since_window(self) -> list[dict]:
        """The moves of the others since the reader's last turn, oldest first: from after
        the reader's last move before them up to the newest move of another seat (so they
        stay in view while the reader plays its own turn). Found once (a page asks for it
        for the feed and for each other player's box)."""
        if self._window is None:
            start, end = self._window_bounds()
            self._window = (self.view.get("events") or [])[start:end]
        return self._window

    def _window_bounds(self) -> tuple[int, int]:
        """Where the window lies in the events, found from the newest back (a hand has a
        hundred events; a window, a few)."""
        events = self.view.get("events") or []
        me = self.viewer
        last = len(events) - 1
        while last >= 0 and events[last].get("seat") in (me, None):
            last -= 1
        if last < 0:
            return 0, 0
        mine = last - 1
        while mine >= 0 and (me is None or events[mine].get("seat") != me):
            mine -= 1
        return mine + 1, last + 1

    def feed(self, most: int = 10) -> list[str]:
        """The moves since the reader's turn, one sentence each, newest last."""
        return [self.event(e) for e in self.since_window()[-most:]]

    def since(self, seat: int) -> str:
        """What one seat did since the reader's turn, in a few words: "drew · discarded 9♣"."""
        return " · ".join(self.since_parts(seat))

    def since_parts(self, seat: int) -> list[str]:
        """The same, a phrase a move (a box that keeps its newest moves shows whole phrases)."""
        parts = [self.short(e) for e in self.since_window() if e.get("seat") == seat]
        return [p for p in parts if p]

    def short(self, e: dict) -> str:
        do = e["do"]
        if do == "draw":
            return self.template("short.draw")
        if do == "take":
            return self.template("short.take").format(card=self.card(e["card"]))
        if do == "meld" and e.get("face_down"):
            return self.template("short.secret")
        if do == "meld":
            return self.template("short.meld").format(
                cards=self.stood(e, self.cards(sorted(e["cards"], key=_order))))
        if do == "layoff":
            return self.template("short.layoff").format(card=self.stood(e, self.card(e["card"])))
        if do == "discard":
            return self.template("short.discard").format(card=self.card(e["card"]))
        key = f"short.{do}"
        return self.t(CATALOG[key]) if key in CATALOG else ""

    # -- the result and the turn
    def void_tie(self) -> bool:
        """Whether a Tong-its hand was void for a tie in a challenged Draw (draw_tie void)."""
        r = self.view.get("result") or {}
        return (self.game == "tongits" and r.get("end") == "void"
                and any(e["do"] == "challenge" for e in self.view.get("events") or []))

    def compared(self) -> list[int]:
        """The seats whose counts a challenged Draw compared: the caller and challengers."""
        return [e["seat"] for e in self.view.get("events") or []
                if e["do"] in ("call_draw", "challenge")]

    def how(self) -> str:
        end = (self.view.get("result") or {}).get("end")
        key = f"{self.game}.end.{end}" + (".tie" if self.void_tie() else "")
        return self.t(CATALOG[key]) if key in CATALOG else str(end)

    def why(self, why: str) -> str:
        key = f"why.{why}"
        return self.t(CATALOG[key]) if key in CATALOG else why

    def line(self, ln: dict) -> str:
        """One settlement line's words ("Ben pays you"); the chips are shown beside it."""
        payer, to = ln["from"], ln["to"]
        if payer is None:
            return self.template("line.pot_pays", to == self.viewer).format(to=self.name(to))
        if to is None:
            return self.template("line.to_pot", payer == self.viewer).format(payer=self.name(payer))
        if to == self.viewer:
            return self.template("line.pays_you").format(payer=self.name(payer))
        return self.template("line.pays", payer == self.viewer).format(
            payer=self.name(payer), to=self.name(to))

    def winners(self) -> str:
        return self.t(CATALOG["won"]).format(names=self.names_of(self.view["result"]["winners"]))

    def turn(self) -> str:
        """Whose turn it is, in one sentence (for the live region)."""
        r = self.view.get("result")
        if r:
            who = r.get("winners") or []
            if not who:
                return self.t(CATALOG["winners.none"])
            if who == [self.viewer]:
                return self.t(CATALOG["winners.you"])
            return self.t(CATALOG["winners.one" if len(who) == 1 else "winners.many"]).format(
                names=self.names_of(who))
        turn = self.view.get("turn")
        if turn is None:
            return ""
        return self.say("answer" if self.view.get("phase") == "answer" else "turn", turn)

    def draw_called(self) -> str:
        """Who called the Draw now being answered."""
        caller = next((e["seat"] for e in reversed(self.view.get("events") or [])
                       if e["do"] == "call_draw"), None)
        if caller is None:
            return self.t(CATALOG["draw_called"])
        return self.say("call_draw", caller)

    def draw_blocked(self, seat: int, whole_hand: bool) -> str:
        """Why Call Draw is not offered: `seat` laid off on the reader's meld."""
        return self.say("blocked.hand" if whole_hand else "blocked.next_turn", seat)

    def refusal(self, code: str | None, facts: dict, message: str) -> str:
        """An engine's or the table's refusal worded with names; its message otherwise."""
        key = f"refused.{code}"
        if key not in CATALOG:
            return message
        key = f"{self.game}.{key}" if f"{self.game}.{key}" in CATALOG else key   # Tonk: spread
        if facts.get("owner") is not None and facts["owner"] == self.viewer \
                and f"{key}.you" in CATALOG:
            key += ".you"           # "fits your 4♥ 5♥ 6♥"
        shown = {}
        for k, v in facts.items():
            if k in ("seat", "owner", "host"):
                shown[k] = self.name(v)
            elif k == "card":
                shown[k] = self.card(v)
            elif k == "cards":
                shown[k] = self.cards(v)
            elif k == "index":
                shown["number"] = v + 1
            elif k == "seats":
                shown["names"] = self.names_of(v)
            else:
                shown[k] = v
        return self.t(CATALOG[key]).format(**shown)


_ANSWERS = ("call_draw", "fold", "challenge")     # Tong-its: where unopened seats fold unasked


def _order(c: str) -> tuple[int, int]:
    """Deck order (suit, then rank), as the engine sorts a meld."""
    if c == "JK":                   # Tonk's joker comes last, as in the canonical deck
        return 4, 0
    ranks = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    return "CDHS".index(c[-1]), ranks.index(c[:-1])


def log_lines(view) -> list[str]:
    """The view's `log`: English for programs, every seat by name, cards as texts."""
    return Words(view).lines()
