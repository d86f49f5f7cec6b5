"""Tonk's house-rule variants (rules/tonk.md, "House-rule variants") that change what may
be spread, hit, taken, discarded or drawn. tonk.py keeps the turn and the settling, and
calls in here; with every variant off it never does, so plain Tonk keeps its fast path.

`plain(options)`: natural cards, ace low only; melds.py answers every question then.
Otherwise spreads.py does, with the wilds and the ace's second place.
"""
from __future__ import annotations

from . import cards as C
from .actions import DISCARDS, Action
from .errors import IllegalAction
from .hand import Hand, Meld
from .melds import is_meld, melds_in
from .spreads import best_split, can_hit, hits, holds_spread, kind_of, problem, spreads_in


def plain(options: dict) -> bool:
    return options["wilds"] == "none" and not options["ace_high"]


def values(options: dict) -> tuple[int, ...]:
    """Each card's count: face_values 11-13 makes J Q K worth 11 12 13; the joker is 0."""
    return C.COURT_VALUE if options["face_values"] == "11-13" else C._VALUE


def count(cards, options: dict) -> int:
    table = values(options)
    return sum(table[c] for c in cards)


def held_spreads(cards, options: dict) -> list[tuple[tuple[int, ...], tuple | None]]:
    """The spreads a hand still held at the end is shown in, with what each wild stands for."""
    return best_split(cards, kind_of(options), values(options))


def deck(options: dict) -> tuple[int, ...]:
    return C.DECK_WITH_JOKER if options["wilds"] == "deuces_joker" else C.DECK


# ---- the draw: a reshuffled stock ------------------------------------------------------

def reshuffles(hand: Hand) -> bool:
    """Whether a draw now turns the discard pile (all but its top) into a new stock."""
    return (hand.options["stock_out"] == "reshuffle" and not hand.stock
            and len(hand.discard) > 1)


def draw_action(hand: Hand, seat: int) -> Action:
    # One listed instance: the pile as it lies. The server puts a secure shuffle in its place.
    return Action("draw", seat, stock=tuple(hand.discard[:-1])) if reshuffles(hand) \
        else Action("draw", seat)


def reshuffle(hand: Hand, action: Action) -> None:
    """Check a draw's `stock` and, if this draw reshuffles, make the new stock."""
    if not reshuffles(hand):
        if action.stock is not None:
            raise IllegalAction("this draw does not reshuffle the discard pile, so it takes no "
                                "'stock'")
        return
    under = hand.discard[:-1]
    if action.stock is None:
        raise IllegalAction("the stock is empty: this draw shuffles the discard pile into a new "
                            "stock, so it must carry that stock ('stock')")
    if sorted(action.stock) != sorted(under):
        raise IllegalAction(f"'stock' must list exactly the {len(under)} cards under the top "
                            "of the discard pile, each once")
    hand.stock = list(reversed(action.stock))
    hand.discard = hand.discard[-1:]


# ---- the take: only to spread it (take_to_spread) ---------------------------------------

def takes(hand: Hand, seat: int, card: int | None = None) -> list[Action]:
    """Every take that spreads the top discard (or `card`, the one beneath it) at once."""
    top, held = hand.discard[-1] if card is None else card, hand.hands[seat]
    found = _spreads(held + [top], hand.options)
    return [Action("take", seat, card=card, cards=tuple(c for c in cards if c != top),
                   stands=stands)
            for cards, stands in found if top in cards]


def taken_card(hand: Hand, action: Action) -> int:
    """The discard a take takes: the top, or under take_from "top_two" the one beneath."""
    top = hand.discard[-1]
    if action.card is None or action.card == top:
        return top
    if hand.options["take_from"] != "top_two":
        raise IllegalAction(f"you may only take the top discard, {C.text(top)}")
    if len(hand.discard) < 2 or action.card != hand.discard[-2]:
        beneath = f", or the card beneath it, {C.text(hand.discard[-2])}" \
            if len(hand.discard) >= 2 else " (there is no card beneath it)"
        raise IllegalAction(f"you may take the top discard, {C.text(top)}{beneath}")
    return action.card


def take_spread(hand: Hand, action: Action) -> Meld:
    """Check a take's `with` and `as`; return the spread it lays (hand not yet changed)."""
    seat, opts = action.seat, hand.options
    if not opts["take_to_spread"]:
        if action.cards or action.stands:
            raise IllegalAction("in Tonk you take the discard on its own, without naming cards")
        return None
    if not hand.discard:
        raise IllegalAction("the discard pile is empty")
    if not action.cards:
        raise IllegalAction("you may take the discard only to spread it at once: name the two "
                            "or more cards of your hand it goes with ('with')")
    top = taken_card(hand, action)
    if top in action.cards:
        raise IllegalAction(f"{C.text(top)} is the discard itself: 'with' names cards of your hand")
    _in_hand(hand.hands[seat], action.cards)
    cards = sorted(action.cards + (top,))
    _check_spread(cards, action.stands, opts)
    return Meld(seat, cards, by={c: seat for c in cards}, stands=action.stands or ())


# ---- spreading and hitting with wilds or a high ace -------------------------------------

def _spreads(held, options: dict) -> list[tuple[tuple[int, ...], tuple | None]]:
    if plain(options):
        return [(m, None) for m in melds_in(held)]
    return spreads_in(held, kind_of(options))


def _check_spread(cards, stands, options: dict) -> None:
    if plain(options):
        if stands:
            raise IllegalAction("there are no wild cards at this table, so no 'as'")
        if not is_meld(cards):
            raise IllegalAction(f"{' '.join(C.texts(cards))} is not a book or a run")
        return
    why = problem(cards, stands, kind_of(options))
    if why:
        raise IllegalAction(why)


def _table(hand: Hand, change=None):
    """Every spread as (cards, stands); `change` = (seat, index, meld) swaps one in."""
    out = []
    for s, ms in enumerate(hand.melds):
        for i, m in enumerate(ms):
            if change and change[0] == s and change[1] == i:
                m = change[2]
            out.append((m.cards, m.stands))
    if change and change[1] is None:
        out.append((change[2].cards, change[2].stands))
    return out


def _strands(hand: Hand, left, change) -> bool:
    """Whether the play leaves only the taken card in hand with nowhere to hit it."""
    taken = hand.extra["taken"]
    if len(left) != 1 or left[0] != taken:
        return False
    return not can_hit(taken, _table(hand, change), kind_of(hand.options))


def play_actions(hand: Hand) -> list[Action]:
    """Spreads, hits and discards with wilds or a high ace (play phase)."""
    seat, kind = hand.turn, kind_of(hand.options)
    held = hand.hands[seat]
    acts = []
    for cards, stands in spreads_in(held, kind):
        left = [c for c in held if c not in cards]
        if len(left) == 1 and _strands(hand, left, (seat, None, Meld(seat, list(cards), stands=stands or ()))):
            continue
        acts.append(Action("meld", seat, cards=cards, stands=stands))
    for s, ms in enumerate(hand.melds):
        for i, m in enumerate(ms):
            for card, stands in hits(m.cards, m.stands, held, kind):
                if len(held) == 2:
                    new, back = hit_result(m, card, stands, seat)
                    left = [c for c in held if c != card] + back
                    if _strands(hand, left, (s, i, new)):
                        continue
                acts.append(Action("layoff", seat, card=card, onto=(s, i), stands=stands))
    return acts + discards(hand, seat)


def discards(hand: Hand, seat: int) -> list[Action]:
    held, taken, mine = hand.hands[seat], hand.extra["taken"], DISCARDS[seat]
    if hand.options["must_spread"]:
        kind = kind_of(hand.options)
        return [mine[c] for c in held if c != taken
                and not holds_spread([x for x in held if x != c], kind)]
    return [mine[c] for c in held if c != taken]


def hit_result(meld: Meld, card: int, stands, seat: int) -> tuple[Meld, list[int]]:
    """(the spread after the hit, the cards going back to the hand: a replaced wild)."""
    if stands:
        ((_, stand),) = stands
        return meld.plus(card, seat, stand), []
    for w, c in meld.stands:
        if c == card:       # the natural takes its wild's place; the wild goes to the hand
            cards = sorted([x for x in meld.cards if x != w] + [card])
            by = {k: v for k, v in meld.by.items() if k != w} | {card: seat}
            return Meld(meld.seat, cards, meld.face_down, by,
                        tuple(p for p in meld.stands if p[0] != w)), [w]
    return meld.plus(card, seat), []


def check_spread_play(hand: Hand, action: Action) -> Meld:
    """A `meld` with wilds or a high ace: checked; the Meld it makes."""
    seat, held = action.seat, hand.hands[action.seat]
    _in_hand(held, action.cards)
    cards = sorted(action.cards)
    _check_spread(cards, action.stands, hand.options)
    meld = Meld(seat, cards, by={c: seat for c in cards}, stands=action.stands or ())
    left = [c for c in held if c not in cards]
    if _strands(hand, left, (seat, None, meld)):
        raise _stranded(hand)
    return meld


def check_hit(hand: Hand, action: Action, meld: Meld, owner: int, index: int
              ) -> tuple[Meld, list[int]]:
    """A `layoff` with wilds or a high ace: checked; (the new spread, cards back to hand)."""
    seat, card, held = action.seat, action.card, hand.hands[action.seat]
    _in_hand(held, [card])
    kind = kind_of(hand.options)
    where = f"seat {owner}'s meld {index}"
    if card in kind.wilds:
        if not action.stands:
            raise IllegalAction(f"say what the wild {C.text(card)} stands for ('as')")
        if len(action.stands) != 1 or action.stands[0][0] != card:
            raise IllegalAction(f"'as' must name only the wild card played, {C.text(card)}")
        wilds = len(meld.stands)
        if len(meld.cards) - wilds <= wilds + 1:
            raise IllegalAction(f"{where} would not keep more natural cards than wild cards")
    elif action.stands:
        raise IllegalAction(f"{C.text(card)} is not a wild card, so the hit takes no 'as'")
    if (card, action.stands) not in hits(meld.cards, meld.stands, [card], kind):
        stand = f" standing for {C.text(action.stands[0][1])}" if action.stands else ""
        raise IllegalAction(f"{C.text(card)}{stand} does not fit on {where}")
    new, back = hit_result(meld, card, action.stands, seat)
    if _strands(hand, [c for c in held if c != card] + back, (owner, index, new)):
        raise _stranded(hand)
    return new, back


def check_discard(hand: Hand, card: int) -> None:
    if hand.options["must_spread"]:
        left = [c for c in hand.hands[hand.turn] if c != card]
        if holds_spread(left, kind_of(hand.options)):
            raise IllegalAction("you may not keep a book or run in hand (only three aces): "
                                "lay it down before you discard")


def check_drop(hand: Hand, seat: int) -> None:
    if hand.options["must_spread"] and holds_spread(hand.hands[seat], kind_of(hand.options)):
        raise IllegalAction("you may not drop holding a book or run (only three aces): draw "
                            "and lay it down first")


def may_drop(hand: Hand, seat: int) -> bool:
    return not (hand.options["must_spread"]
                and holds_spread(hand.hands[seat], kind_of(hand.options)))


def _in_hand(held, cards) -> None:
    for c in cards:
        if c not in held:
            raise IllegalAction(f"{C.text(c)} is not in your hand")


def _stranded(hand: Hand) -> IllegalAction:
    taken = hand.extra["taken"]
    return IllegalAction(f"that would leave only {C.text(taken)}, which you took from the "
                         "discard pile this turn and may not discard")

