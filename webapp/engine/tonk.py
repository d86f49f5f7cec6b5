"""Tonk (Tunk): the rules of shared/rules/tonk.md on the shared Hand.

Phases: "draw" (drop, draw, take), "play" (meld = spread, layoff = hit, discard), "over".
`Hand.extra` keeps the turn's bookkeeping, all immutable:
  taken  - the card taken from the discard pile this turn (it may not be discarded), or None
  spread - whether the player laid a new spread this turn (tonk_out_needs_spread)
  locks  - per seat, turns left in which that seat may not drop (hit_lock)
The house-rule variants that change spreads, takes and draws live in tonk_house.py.
"""
from __future__ import annotations

from . import cards as C
from . import tonk_house as house
from .actions import DISCARDS, Action
from .errors import IllegalAction
from .hand import Hand, Meld
from .melds import extensions, is_meld, melds_in

DROPS, DRAWS, TAKES = ([Action(do, s) for s in range(6)] for do in ("drop", "draw", "take"))

# Actions of Tong-its, named the way the refusal reads.
NOT_TONK = {"tongit": "Tongit", "call_draw": "calling Draw", "fold": "folding",
            "challenge": "challenging"}


# ---- set-up -------------------------------------------------------------------------

def player_counts(options: dict) -> range:
    return {7: range(2, 6), 12: range(2, 4)}.get(options["hand_size"], range(2, 7))


def deck(options: dict) -> tuple[int, ...]:
    return house.deck(options)


def hand_sizes(players: int, dealer: int, options: dict) -> list[int]:
    return [options["hand_size"]] * players


def most_cards(options: dict) -> int:
    return options["hand_size"] + 1     # the deal and a draw


def deal(deck, players, dealer, options):
    """One card at a time from the seat after the dealer, dealer last; then the upcard."""
    dealt = options["hand_size"] * players
    hands = [[] for _ in range(players)]
    for i, card in enumerate(deck[:dealt]):
        hands[(dealer + 1 + i) % players].append(card)
    rest = deck[dealt:]
    discard = rest[:1] if options["upcard"] else []
    return hands, discard, rest[len(discard):]


def start(players, dealer, options, hands, discard, stock, match) -> Hand:
    hand = Hand(game="tonk", players=players, options=options, dealer=dealer, hands=hands,
                stock=stock[::-1], discard=discard, melds=[[] for _ in range(players)],
                turn=(dealer + 1) % players, phase="draw", pot_before=match["pot"],
                opened=[False] * players,
                extra={"taken": None, "spread": False, "locks": (0,) * players})
    _tonk_on_the_deal(hand)
    return hand


def _deal_win(total: int, options: dict) -> int:
    """0, or how many stakes a dealt hand of `total` wins at once."""
    if options["wilds"] != "none":      # automatic wins replace tonk on the deal
        return 2 if total in (50, 41) or total <= 13 else 1 if total == 49 else 0
    if total == 50 or (total == 49 and options["deal_tonk"] == "49-50"):
        return 2
    return 2 if options["low_deal_double"] and total <= 13 else 0


def _tonk_on_the_deal(hand: Hand) -> None:
    wins = [_deal_win(house.count(h, hand.options), hand.options) for h in hand.hands]
    tonks = [s for s, w in enumerate(wins) if w]
    if len(tonks) == 1:
        (winner,) = tonks
        _everyone_pays(hand, winner, wins[winner] * hand.options["stake"], "tonk on the deal")
        _finish(hand, "deal_tonk", tonks)
    elif tonks:
        _finish(hand, "void", [])


# ---- what may be done now -----------------------------------------------------------

def legal_actions(hand: Hand) -> list[Action]:
    seat, opts = hand.turn, hand.options
    if hand.phase == "draw":
        # Option checks inline and Actions made once: plain Tonk's hot path stays short.
        drop = not hand.extra["locks"][seat] and (not opts["must_spread"] or house.may_drop(hand, seat))
        acts = [DROPS[seat]] if drop else []
        acts.append(house.draw_action(hand, seat) if opts["stock_out"] == "reshuffle" else DRAWS[seat])
        if hand.discard:
            acts += house.takes(hand, seat) if opts["take_to_spread"] else [TAKES[seat]]
            if opts["take_from"] == "top_two" and len(hand.discard) >= 2:
                beneath = hand.discard[-2]
                acts += (house.takes(hand, seat, beneath) if opts["take_to_spread"]
                         else [Action("take", seat, card=beneath)])
        return acts
    if opts["wilds"] != "none" or opts["ace_high"]:
        return house.play_actions(hand)
    held, taken = hand.hands[seat], hand.extra["taken"]
    table = _table_hits(hand)
    acts = [Action("meld", seat, cards=m) for m in melds_in(held)
            if not _strands_taken(held, m, taken, table, lambda: extensions(m))]
    for s, i, fits in table:
        for c in held:
            if c in fits and not _strands_taken(
                    held, (c,), taken, table, lambda: extensions(hand.melds[s][i].cards + [c])):
                acts.append(Action("layoff", seat, card=c, onto=(s, i)))
    if opts["must_spread"]:
        return acts + house.discards(hand, seat)
    discards = DISCARDS[seat]
    acts += [discards[c] for c in held if c != taken]
    return acts


def _table_hits(hand: Hand) -> list[tuple[int, int, tuple[int, ...]]]:
    return [(s, i, extensions(m.cards)) for s, ms in enumerate(hand.melds) for i, m in enumerate(ms)]


def _strands_taken(held, played, taken, table, fits_after) -> bool:
    """Whether playing `played` would leave only the taken card, with nowhere to hit it.

    It could not be discarded, so the turn could never end. `fits_after()` gives the cards
    that fit the spread just made or hit; `table`'s old fits for a hit spread stay right for
    every card but the one hit, and that one is not the taken card.
    """
    if len(held) != len(played) + 1 or taken not in held or taken in played:
        return False
    return taken not in fits_after() and not any(taken in fits for _, _, fits in table)


# ---- applying an action -------------------------------------------------------------

def apply(hand: Hand, action: Action) -> Hand:
    do, seat = action.do, action.seat
    if hand.over:
        raise IllegalAction("the hand is over")
    if do in NOT_TONK:
        raise IllegalAction(f"{NOT_TONK[do]} is not part of Tonk")
    if seat != hand.turn:
        raise IllegalAction(f"it is seat {hand.turn}'s turn, not yours", code="not_your_turn",
                            seat=hand.turn)
    if hand.phase == "draw" and do in ("meld", "layoff", "discard"):
        raise IllegalAction("draw from the stock or take the discard first")
    if hand.phase == "play" and do in ("drop", "draw", "take"):
        raise IllegalAction("you may only drop first thing in your turn, before drawing"
                            if do == "drop" else "you have already drawn this turn")
    new = hand.clone()
    {"drop": _drop, "draw": _draw, "take": _take, "meld": _meld, "layoff": _layoff,
     "discard": _discard}[do](new, action)
    return new


def _drop(hand: Hand, action: Action) -> None:
    locked = hand.extra["locks"][action.seat]
    if locked:
        more = f" (and {locked - 1} more)" if locked > 1 else ""
        raise IllegalAction(f"you cannot drop this turn{more}: another player hit your spread")
    if hand.options["must_spread"]:
        house.check_drop(hand, action.seat)
    _settle_drop(hand, action.seat)


def _draw(hand: Hand, action: Action) -> None:
    seat = action.seat
    if action.stock is not None or hand.options["stock_out"] == "reshuffle":
        house.reshuffle(hand, action)
    if not hand.stock:
        _settle_stock(hand)
        return
    card = hand.stock.pop()
    hand.hands[seat].append(card)
    _begin_play(hand, seat, None)


def _take(hand: Hand, action: Action) -> None:
    spread = house.take_spread(hand, action) \
        if action.cards or action.stands or hand.options["take_to_spread"] else None
    if not hand.discard:
        raise IllegalAction("the discard pile is empty")
    card = house.taken_card(hand, action)
    hand.discard.remove(card)           # under take_from "top_two" the top may stay
    hand.hands[action.seat].append(card)
    _begin_play(hand, action.seat, card)
    if spread is not None:          # take_to_spread: laid down at once, nothing to strand
        for c in spread.cards:
            hand.hands[action.seat].remove(c)
        _lay(hand, action.seat, spread)
        hand.extra["taken"] = None
        _after_play(hand, action.seat)


def _begin_play(hand: Hand, seat: int, taken: int | None) -> None:
    # A lock counts the locked player's turns; this one has now passed its drop.
    locks = hand.extra["locks"]
    if locks[seat]:
        hand.extra["locks"] = locks[:seat] + (locks[seat] - 1,) + locks[seat + 1:]
    hand.extra["taken"] = taken
    hand.extra["spread"] = False
    hand.phase = "play"


def _meld(hand: Hand, action: Action) -> None:
    seat, held = action.seat, hand.hands[action.seat]
    if action.face_down:
        raise IllegalAction("Tonk has no face-down spreads")
    if not action.cards:
        raise IllegalAction("name the cards of the spread")
    cards = sorted(action.cards)
    if len(set(cards)) != len(cards):
        raise IllegalAction("a card is listed twice")
    opts = hand.options
    if opts["wilds"] == "none" and not opts["ace_high"] and not action.stands:
        _check_in_hand(held, cards)
        if not is_meld(cards):
            raise IllegalAction(f"{' '.join(C.texts(cards))} is not a book or a run")
        _check_not_stranded(hand, held, cards, lambda: extensions(cards))
        meld = Meld(seat, cards, by={c: seat for c in cards})
    else:
        meld = house.check_spread_play(hand, action)
    for c in cards:
        held.remove(c)
    _lay(hand, seat, meld)
    _after_play(hand, seat)


def _lay(hand: Hand, seat: int, meld: Meld) -> None:
    hand.melds[seat].append(meld)
    hand.opened[seat] = True
    hand.extra["spread"] = True


def _layoff(hand: Hand, action: Action) -> None:
    seat, held, card = action.seat, hand.hands[action.seat], action.card
    if card is None or action.onto is None:
        raise IllegalAction("name the card and the spread it goes on")
    owner, index = action.onto
    if not 0 <= owner < hand.players:
        raise IllegalAction(f"there is no seat {owner} at this table")
    if not 0 <= index < len(hand.melds[owner]):
        raise IllegalAction(f"seat {owner} has no meld {index}", code="no_meld", owner=owner,
                            index=index)
    meld = hand.melds[owner][index]
    opts = hand.options
    if opts["wilds"] == "none" and not opts["ace_high"] and not action.stands:
        _check_in_hand(held, [card])
        if card not in extensions(meld.cards):
            raise IllegalAction(f"{C.text(card)} does not fit on seat {owner}'s meld {index}",
                                code="does_not_fit", card=C.text(card), owner=owner, index=index)
        _check_not_stranded(hand, held, [card], lambda: extensions(meld.cards + [card]))
        new, back = meld.plus(card, seat), []
    else:
        new, back = house.check_hit(hand, action, meld, owner, index)
    held.remove(card)
    held += back
    hand.melds[owner][index] = new
    if owner != seat and hand.options["hit_lock"]:
        locks = hand.extra["locks"]
        hand.extra["locks"] = locks[:owner] + (hand.options["hit_lock"],) + locks[owner + 1:]
    _after_play(hand, seat)


def _discard(hand: Hand, action: Action) -> None:
    seat, held, card = action.seat, hand.hands[action.seat], action.card
    if card is None:
        raise IllegalAction("name the card to discard")
    _check_in_hand(held, [card])
    if card == hand.extra["taken"]:
        raise IllegalAction(f"you took {C.text(card)} from the discard pile this turn, "
                            "so you may not discard it")
    if hand.options["must_spread"]:
        house.check_discard(hand, card)
    held.remove(card)
    hand.discard.append(card)
    if not held:
        _everyone_pays(hand, seat, hand.options["stake"], "out")
        _finish(hand, "out", [seat])
        return
    hand.turn = hand.next_seat(seat)
    hand.phase = "draw"
    hand.extra["taken"] = None


def _check_in_hand(held, cards) -> None:
    for c in cards:
        if c not in held:
            raise IllegalAction(f"{C.text(c)} is not in your hand", code="not_held", card=C.text(c))


def _check_not_stranded(hand: Hand, held, played, fits_after) -> None:
    taken = hand.extra["taken"]
    if _strands_taken(held, played, taken, _table_hits(hand), fits_after):
        raise IllegalAction(f"that would leave only {C.text(taken)}, which you took from the "
                            "discard pile this turn and may not discard")


def _after_play(hand: Hand, seat: int) -> None:
    """A hand emptied by spreading and hitting tonks out."""
    if hand.hands[seat]:
        return
    double = hand.extra["spread"] or not hand.options["tonk_out_needs_spread"]
    _everyone_pays(hand, seat, hand.options["stake"] * (2 if double else 1), "tonk")
    _finish(hand, "tonk", [seat])


# ---- settling -----------------------------------------------------------------------

def _settle_drop(hand: Hand, dropper: int) -> None:
    stake, counts = hand.options["stake"], deadwood(hand)
    mine = counts[dropper]
    others = [s for s in range(hand.players) if s != dropper]
    if all(counts[s] > mine for s in others):
        _everyone_pays(hand, dropper, stake, "drop")
        _finish(hand, "drop", [dropper])
        return
    for s in others:
        if counts[s] <= mine:
            hand.pay(dropper, s, 2 * stake, "caught")
    low = min(counts[s] for s in others)
    lowest = [s for s in others if counts[s] == low]
    for w in lowest:
        for s in others:
            if s not in lowest:
                hand.pay(s, w, stake, "lowest count")
    _finish(hand, "caught", lowest)


def _settle_stock(hand: Hand) -> None:
    if hand.options["stock_out"] == "void":
        _finish(hand, "void", [])
        return
    counts = deadwood(hand)
    low = min(counts)
    lowest = [s for s in range(hand.players) if counts[s] == low]
    if len(lowest) == hand.players:
        lowest = []  # everyone tied: nobody pays
    for w in lowest:
        for s in range(hand.players):
            if counts[s] != low:
                hand.pay(s, w, hand.options["stake"], "stock")
    _finish(hand, "stock", lowest)


def _everyone_pays(hand: Hand, winner: int, chips: int, why: str) -> None:
    for s in range(hand.players):
        if s != winner:
            hand.pay(s, winner, chips, why)


def _finish(hand: Hand, end: str, winners: list[int]) -> None:
    hand.phase, hand.turn, hand.end = "over", None, end
    hand.winners = sorted(winners)
    hand.shown = [h[:] for h in hand.hands]
    hand.extra["taken"] = None


# ---- counts and the next hand -------------------------------------------------------

def deadwood(hand: Hand) -> list[int]:
    """Tonk counts every card in hand."""
    return [house.count(h, hand.options) for h in hand.hands]


def next_match(hand: Hand) -> dict:
    """The deal passes to the next seat every hand, void ones too; Tonk has no side pot."""
    return {"dealer": hand.next_seat(hand.dealer), "pot": hand.pot(), "streak": None}
