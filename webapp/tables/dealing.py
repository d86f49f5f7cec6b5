"""Dealing and the ledger: when a hand is dealt, from which deck, and the running chips."""
from __future__ import annotations

import secrets
import time

from .deck import shuffled_deck
from ..engine import game as engine
from .seal import new_salt


def dealable(table) -> bool:
    if table.closed or table.scheduler.stopped:
        return False
    if table.hand is None:
        return all(st.taken for st in table.seats)
    people = [st for st in table.seats if not st.bot]
    # Bots are ready at once; with no person left at the table, nobody wants a next hand.
    return table.hand.over and bool(people) and all(st.ready for st in people)


def deal(table) -> tuple[dict, object]:
    """(the deal row for the journal, the engine's new Hand)."""
    number = table.hand_number + 1
    if table.hand is None or table.fresh_match:        # a new table, or "Play again"
        dealer, match = secrets.randbelow(table.players), {"pot": 0, "streak": None}
    else:
        m = engine.next_match(table.hand)
        dealer, match = m["dealer"], {"pot": m["pot"], "streak": m["streak"]}
        if m.get("run"):        # Tong-its: the winning run (streak_multiplier)
            match["run"] = m["run"]
    deck = table.deck_source(table.code, number) if table.deck_source else None
    if isinstance(deck, tuple):             # tests may also choose the dealer
        deck, dealer = deck
    if deck is None:
        deck = shuffled_deck(engine.deck(table.game, table.options))  # the OS's randomness
    hand = engine.new_hand(table.game, table.players, dealer=dealer, options=table.options,
                           match=match, deck=list(deck))
    return {"number": number, "deck": list(deck), "dealer": dealer, "match": match,
            "options": table.options, "salt": new_salt(), "at": time.time()}, hand


def chips(table) -> list[int]:
    """The running ledger: every hand's net so far, this hand's antes included."""
    if table.hand is None:
        return list(table.chips_before)
    return [a + b for a, b in zip(table.chips_before, table.hand.net())]
