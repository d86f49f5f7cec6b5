"""Reading a Tong-its hand back from its events: the table as a seat saw it earlier, a
seat's last turn, and whether a lay-off keeps a seat from calling Draw.

Only the view's events are read (common.read_events); the cards a seat drew from the
stock stay unknown, so a turn read back names what was played in front of everyone.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .common import Table


@dataclass
class LastTurn:
    """What a seat did in front of everyone on its last whole turn."""
    start: int                  # index of its draw or take in t.events (-1: the deal)
    drew: bool                  # from the stock: one card of its hand is unknown to others
    played: tuple[int, ...]     # cards of its hand it melded or laid off that turn
    thrown: int | None          # its discard
    end: int                    # index of that discard
    hidden_meld: bool           # it laid a face-down set: its hand then is unknown
    could_call: bool            # Draw was open to it at the start of that turn
    top: int | None             # the discard top it left lying (drew from the stock)


def opened_before(t: Table, seat: int, index: int) -> bool:
    return any(e.seat == seat and (e.kind in ("meld", "secret") or (e.kind == "take" and e.cards))
               for e in t.events[:index])


def blocked(t: Table, seat: int, start: int) -> bool:
    """Whether a lay-off kept `seat` from calling Draw at the turn starting at `start`."""
    ev = t.events[:start]
    on_me = [i for i, e in enumerate(ev) if e.kind == "layoff" and e.onto == seat]
    if t.options.get("sapaw_blocks_draw") == "hand":
        return bool(on_me)
    ends = [i for i, e in enumerate(ev) if e.seat == seat and e.kind == "discard"]
    if not ends:
        return bool(on_me)
    prev_end = ends[-1]
    starts = [i for i, e in enumerate(ev[:prev_end]) if e.seat == seat and e.kind in ("draw", "take")]
    prev_start = starts[-1] if starts else -1
    return any(i > prev_end or (i > prev_start and ev[i].seat == seat) for i in on_me)


def last_turn(t: Table, seat: int) -> LastTurn | None:
    ev = t.events
    ends = [i for i, e in enumerate(ev) if e.seat == seat and e.kind == "discard"]
    if not ends:
        return None
    end = ends[-1]
    prev = ends[-2] if len(ends) > 1 else -1
    starts = [i for i in range(prev + 1, end) if ev[i].seat == seat and ev[i].kind in ("draw", "take")]
    start = starts[-1] if starts else -1
    played: list[int] = []
    hidden = False
    if start >= 0 and ev[start].kind == "take":
        played += [c for c in ev[start].cards if c != ev[start].card]
    for e in ev[start + 1:end]:
        if e.seat != seat:
            continue
        if e.kind == "meld":
            played += e.cards
        elif e.kind == "secret":
            hidden = True
        elif e.kind == "layoff" and e.card is not None:
            played.append(e.card)
    drew = start >= 0 and ev[start].kind == "draw"
    could = start >= 0 and opened_before(t, seat, start) and not blocked(t, seat, start)
    return LastTurn(start, drew, tuple(played), ev[end].card, end, hidden, could,
                    ev[start].top if drew else None)


def melds_then(t: Table, upto: int) -> list[tuple[int, int, tuple[int, ...] | None]]:
    """The melds on the table after the first `upto` events, as Table.melds has them."""
    melds: dict[tuple[int, int], list[int] | None] = {}
    made: dict[int, int] = {}
    for e in t.events[:upto]:
        if e.kind in ("meld", "secret") or (e.kind == "take" and e.cards):
            k = made.get(e.seat, 0)
            made[e.seat] = k + 1
            melds[(e.seat, k)] = None if e.kind == "secret" else list(e.cards)
        elif e.kind == "layoff" and melds.get((e.onto, e.meld)) is not None:
            melds[(e.onto, e.meld)].append(e.card)
    return [(s, i, None if cards is None else tuple(sorted(cards)))
            for (s, i), cards in melds.items()]


def as_then(t: Table, seat: int, hand: list[int], upto: int) -> Table:
    """The table `seat` saw before event `upto`, holding `hand`: the events, melds, pile,
    counts, stock and who had opened as they were then (read back from the events)."""
    counts, pile, stock = list(t.counts), list(t.discard), t.stock
    for e in reversed(t.events[upto:]):
        if e.seat is None:
            continue
        if e.kind in ("draw", "take"):
            counts[e.seat] -= 1
            if e.kind == "draw":
                stock += 1
            else:
                pile.append(e.card)
                counts[e.seat] += len(e.cards)
        elif e.kind == "meld":
            counts[e.seat] += len(e.cards)
        elif e.kind == "secret":
            counts[e.seat] += 4
        elif e.kind == "layoff":
            counts[e.seat] += 1
        elif e.kind == "discard" and pile:
            pile.pop()
            counts[e.seat] += 1
    opened = [opened_before(t, s, upto) for s in range(t.players)]
    return dataclasses.replace(t, me=seat, hand=list(hand), events=t.events[:upto],
                               melds=melds_then(t, upto), discard=pile, counts=counts,
                               stock=stock, opened=opened, legal=[], phase="draw", _held={})
