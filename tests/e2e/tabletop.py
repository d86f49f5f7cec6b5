"""Tables with many melds (Tonk: spreads) down, for the fit tests and the screens.

`full_table(tables, decks, game, melds, ...)` deals a stacked deck in which every seat holds
melds, then plays through `Table.act` (the same calls as the JSON API) until `melds` of
them are down, a card laid off on the first, and the turn is on the seat asked for.
"""
from __future__ import annotations

from webapp.engine.cards import parse

from .fit import deck_of

# Each seat's hand: three melds and some loose cards (no loose card makes a meld with
# another seat's discards).
TONGITS = [["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "KH", "QD", "JC", "10C"],
           ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "KS", "QC", "10D"],
           ["AD", "2D", "3D", "4D", "5D", "6D", "7C", "8C", "9C", "KC", "QS", "JD"]]
# Tonk, twelve cards each: two spreads a seat and six loose cards.
TONK = [["AS", "2S", "3S", "4S", "5S", "6S", "KH", "QD", "JC", "10C", "9H", "8D"],
        ["AH", "2H", "3H", "4H", "5H", "6H", "KS", "QC", "10D", "9C", "8S", "JS"],
        ["AD", "2D", "3D", "4D", "5D", "6D", "7C", "8C", "KC", "QS", "JD", "10H"]]
# The stock's top: cards that make nothing (drawn one a turn).
FILLER = {"tongits": ["KD", "10S", "JH", "QH", "JS", "10H", "9D", "8D", "7D"],
          "tonk": ["7H", "9S", "JH", "QH", "10S", "7S", "9D", "KD", "7D"]}

MELDS = {"tongits": [[("AS", "2S", "3S"), ("4S", "5S", "6S"), ("7S", "8S", "9S")],
                     [("AH", "2H", "3H"), ("4H", "5H", "6H"), ("7H", "8H", "9H")],
                     [("AD", "2D", "3D"), ("4D", "5D", "6D"), ("7C", "8C", "9C")]],
         "tonk": [[("AS", "2S", "3S"), ("4S", "5S", "6S")],
                  [("AH", "2H", "3H"), ("4H", "5H", "6H")],
                  [("AD", "2D", "3D"), ("4D", "5D", "6D")]]}


def deal(game: str) -> list[str]:
    """Seat 1 deals (Tong-its: it holds thirteen)."""
    hands = [list(h) for h in (TONGITS if game == "tongits" else TONK)]
    if game == "tongits":
        hands[1].append(hands[0].pop())
        return deck_of(hands, 1, FILLER[game])
    return deck_of(hands, 2, FILLER[game])     # Tonk deals from the seat after the dealer


def fill(table, melds: int, on_turn: int = 0, lay_off: bool = True) -> None:
    """Plays until `melds` melds are down (in turn, each seat melding what it holds), one
    card laid off when there are some and `lay_off`, then stops at the start of
    `on_turn`'s turn (about to draw; Tong-its' dealer, before its first move)."""
    game = table.view(0)["game"]
    plan = [list(m) for m in MELDS[game]]
    laid = not lay_off or melds == 0
    first = True
    for _ in range(200):
        seat = next(s for s in range(3) if table.view(s)["legal"])
        v = table.view(seat)
        legal, down = v["legal"], len(v["melds"])
        starts = first or any(a["do"] == "draw" for a in legal)
        if down >= melds and laid and seat == on_turn and starts:
            return
        first = False
        if any(a["do"] == "draw" for a in legal):
            _act(table, seat, {"do": "draw"})
        elif down < melds and plan[seat]:
            cards = sorted(plan[seat].pop(0))       # as offered (with wilds: what each stands for)
            _act(table, seat, next((a for a in legal if a["do"] == "meld" and sorted(a["cards"]) == cards),
                                   {"do": "meld", "cards": cards}))
        elif not laid and [a for a in legal if a["do"] == "layoff"]:
            _act(table, seat, next(a for a in legal if a["do"] == "layoff"))
            laid = True
        else:
            _act(table, seat, _loose_discard(v, plan[seat]))
    raise AssertionError(f"the table did not reach {melds} melds")


def _loose_discard(v, keep) -> dict:
    held = {c for m in keep for c in m}
    for a in v["legal"]:
        if a["do"] == "discard" and a["card"] not in held:
            return a
    return next(a for a in v["legal"] if a["do"] == "discard")


def _act(table, seat, a) -> None:
    table.act(seat, table.view(seat)["version"], dict(a))


def make(tables, decks, game: str, names, options=None, host: int = 0):
    """A table of three dealt `deal(game)`, everyone seated (seat `host` first: the host);
    returns it and the tokens."""
    t = tables.create(game, len(names), dict(options or {}, **({"hand_size": 12} if game == "tonk" else {})), {})
    decks[t.code] = ([parse(c) for c in deal(game)], 1)
    tokens = {s: t.join(names[s], s)[1] for s in sorted(range(len(names)), key=lambda s: s != host)}
    return t, [tokens[s] for s in range(len(names))]
