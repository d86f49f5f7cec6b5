"""Tong-its: the rules of shared/rules/tongits.md on the shared Hand.

Phases: "draw" (call Draw, draw, take, tongit), "play" (meld, layoff, discard, tongit),
"answer" (fold or challenge a Draw; `turn` is the seat that must answer), "over".
`Hand.extra` keeps the bookkeeping, all immutable:
  turn_no     - the number of the current turn (the dealer's first is 0); turns go round
                the seats in order, so a seat's previous turn was turn_no - players
  sapaw       - every lay-off as (turn_no, by seat, onto seat), for the Draw block
  caller      - the seat that called Draw, or None
  challengers - seats that challenged it, in answer order (seat order after the caller)
  times       - at the end: what the winner's run multiplies each line by (1 without one)
  doubled     - at the end: the caller who lost a challenged Draw and paid double, or None
"""
from __future__ import annotations

from . import cards as C
from .cards import DECK
from .actions import DISCARDS, Action
from .errors import IllegalAction
from .hand import POT, Hand, Meld
from .melds import all_melded, deadwood as split_deadwood, extensions, is_meld, is_set, melds_in

PHASE_DOS = {"draw": ("call_draw", "draw", "take", "tongit"),
             "play": ("meld", "layoff", "discard", "tongit"),
             "answer": ("fold", "challenge")}


# ---- set-up -------------------------------------------------------------------------

def player_counts(options: dict) -> range:
    return range(2, 4)      # two players: a house rule of the apps


def deck(options: dict) -> tuple[int, ...]:
    return DECK


def hand_sizes(players: int, dealer: int, options: dict) -> list[int]:
    return [13 if s == dealer else 12 for s in range(players)]


def most_cards(options: dict) -> int:
    return 13       # the dealer's 13, or 12 and a draw


def deal(deck, players, dealer, options):
    """One card at a time from the dealer in seat order: 36 cards go round three times
    exactly, so card 37 comes back to the dealer (two players: 24 cards, then card 25)."""
    dealt = sum(hand_sizes(players, dealer, options))
    hands = [[] for _ in range(players)]
    for i, card in enumerate(deck[:dealt]):
        hands[(dealer + i) % players].append(card)
    return hands, [], deck[dealt:]


def start(players, dealer, options, hands, discard, stock, match) -> Hand:
    # The dealer does not draw on the first turn: play starts in "play".
    hand = Hand(game="tongits", players=players, options=options, dealer=dealer, hands=hands,
                stock=stock[::-1], discard=discard, melds=[[] for _ in range(players)],
                turn=dealer, phase="play", pot_before=match["pot"], streak=match["streak"],
                run=match.get("run"), opened=[False] * players,
                extra={"turn_no": 0, "sapaw": (), "caller": None, "challengers": (),
                       "times": 1, "doubled": None})
    for s in range(players):
        hand.pay(s, POT, options["jackpot"], "ante")
    return hand


# ---- what may be done now -----------------------------------------------------------

def legal_actions(hand: Hand) -> list[Action]:
    seat = hand.turn
    if hand.phase == "answer":
        return [Action("fold", seat), Action("challenge", seat)]
    held = hand.hands[seat]
    acts = []
    if hand.phase == "draw":
        if hand.opened[seat] and _draw_blocker(hand, seat) is None:
            acts.append(Action("call_draw", seat))
        if hand.stock:
            acts.append(Action("draw", seat))
        if hand.discard:
            acts += [Action("take", seat, cards=w) for w in _takes(held, hand.discard[-1])]
    else:
        for meld in melds_in(held):
            acts.append(Action("meld", seat, cards=meld))
            if len(meld) == 4 and is_set(meld):
                acts.append(Action("meld", seat, cards=meld, face_down=True))
        in_hand = set(held)
        for owner, ms in enumerate(hand.melds):
            for i, m in enumerate(ms):
                acts += [Action("layoff", seat, card=c, onto=(owner, i))
                         for c in extensions(m.cards) if c in in_hand]
        discards = DISCARDS[seat]
        kept = dumps(hand, seat) if hand.options["no_dump"] else ()
        acts += [discards[c] for c in sorted(held) if c not in kept]
    if all_melded(held):
        acts.append(Action("tongit", seat))
    return acts


def _takes(held: list[int], top: int) -> list[tuple[int, ...]]:
    """Every `with` (sorted) that makes a new meld with the discard `top`."""
    near = [c for c in held if C.rank(c) == C.rank(top) or C.suit(c) == C.suit(top)]
    return [tuple(c for c in m if c != top) for m in melds_in(near + [top]) if top in m]


def fits(hand: Hand, card: int) -> tuple[int, int] | None:
    """(owner, index) of the first exposed meld `card` could be laid off on, or None."""
    for owner, ms in enumerate(hand.melds):
        for i, m in enumerate(ms):
            if card in extensions(m.cards):
                return owner, i
    return None


def dumps(hand: Hand, seat: int) -> frozenset:
    """Under `no_dump`: the cards of `seat`'s hand it may not discard because they fit a
    meld on the table; none when every card of the hand fits (then any may go)."""
    table = {c for ms in hand.melds for m in ms for c in extensions(m.cards)}
    fit = frozenset(c for c in hand.hands[seat] if c in table)
    return frozenset() if len(fit) == len(hand.hands[seat]) else fit


def _draw_blocker(hand: Hand, seat: int) -> str | None:
    """Why `seat` may not call Draw because of lay-offs on its melds, or None."""
    whole_hand = hand.options["sapaw_blocks_draw"] == "hand"
    # Since the start of its previous turn: its own lay-offs then, others' since.
    since = -1 if whole_hand else hand.extra["turn_no"] - hand.players
    for turn_no, by, onto in reversed(hand.extra["sapaw"]):
        if onto == seat and turn_no >= since:
            who = "you laid off on your own meld" if by == seat else f"seat {by} laid off on your meld"
            when = ("in this hand" if whole_hand else
                    "during your last turn" if by == seat else "since your last turn")
            return f"you cannot call Draw: {who} {when}"
    return None


# ---- applying an action -------------------------------------------------------------

def apply(hand: Hand, action: Action) -> Hand:
    do, seat = action.do, action.seat
    if hand.over:
        raise IllegalAction("the hand is over")
    if do not in DO:
        raise IllegalAction(f"{do} is not part of Tong-its")
    if seat != hand.turn:
        raise IllegalAction(f"it is seat {hand.turn}'s turn, not yours", code="not_your_turn",
                            seat=hand.turn)
    if do not in PHASE_DOS[hand.phase]:
        raise IllegalAction(_out_of_phase(hand, do))
    new = hand.clone()
    DO[do](new, seat, action)
    return new


def _out_of_phase(hand: Hand, do: str) -> str:
    if hand.phase == "answer":
        return "answer the Draw first: fold or challenge"
    if do in ("fold", "challenge"):
        return "nobody has called Draw"
    if hand.phase == "draw":
        return "draw from the stock or take the discard first"
    if do == "call_draw":
        return "Draw can only be called first thing in your turn, before drawing"
    if hand.extra["turn_no"] == 0:
        return "the dealer does not draw on the first turn"
    return "you have already drawn this turn"


def _draw(hand: Hand, seat: int, action: Action) -> None:
    if not hand.stock:
        raise IllegalAction("the stock is empty")
    card = hand.stock.pop()
    hand.hands[seat].append(card)
    hand.phase = "play"


def _take(hand: Hand, seat: int, action: Action) -> None:
    if not hand.discard:
        raise IllegalAction("the discard pile is empty")
    top = hand.discard[-1]
    if action.card is not None and action.card != top:
        raise IllegalAction(f"you may only take the top discard, {C.text(top)}")
    if not action.cards:
        raise IllegalAction("name the cards from your hand that make a new meld with the discard")
    _check_held(hand, seat, action.cards)
    meld = action.cards + (top,)
    if len(action.cards) < 2 or not is_meld(meld):
        raise IllegalAction("you may only take the discard to form a new meld "
                            "with two or more cards from your hand")
    hand.discard.pop()
    _expose(hand, seat, meld, face_down=False)
    hand.phase = "play"
    _tongit_if_empty(hand, seat)


def _meld(hand: Hand, seat: int, action: Action) -> None:
    cards = action.cards
    if not cards:
        raise IllegalAction("name the cards of the meld")
    _check_held(hand, seat, cards)
    if not is_meld(cards):
        raise IllegalAction(f"{_words(cards)} is not a set or a run")
    if action.face_down and not (len(cards) == 4 and is_set(cards)):
        raise IllegalAction("only a set of four can be exposed face down")
    _expose(hand, seat, cards, action.face_down)
    _tongit_if_empty(hand, seat)


def _layoff(hand: Hand, seat: int, action: Action) -> None:
    card, onto = action.card, action.onto
    if card is None or onto is None:
        raise IllegalAction("name the card and the meld it goes on")
    _check_held(hand, seat, (card,))
    owner, index = onto
    if not 0 <= owner < hand.players:
        raise IllegalAction(f"there is no seat {owner} at this table")
    if not 0 <= index < len(hand.melds[owner]):
        raise IllegalAction(f"seat {owner} has no meld {index}", code="no_meld", owner=owner,
                            index=index)
    meld = hand.melds[owner][index]
    if card not in extensions(meld.cards):
        raise IllegalAction(f"{C.text(card)} does not fit on seat {owner}'s meld {index}",
                            code="does_not_fit", card=C.text(card), owner=owner, index=index)
    hand.hands[seat].remove(card)
    hand.melds[owner][index] = meld.plus(card, seat)
    hand.extra["sapaw"] += ((hand.extra["turn_no"], seat, owner),)
    _tongit_if_empty(hand, seat)


def _discard(hand: Hand, seat: int, action: Action) -> None:
    card = action.card
    if card is None:
        raise IllegalAction("name the card to discard")
    _check_held(hand, seat, (card,))
    if hand.options["no_dump"] and card in dumps(hand, seat):
        owner, index = fits(hand, card)
        raise IllegalAction(f"{C.text(card)} fits seat {owner}'s meld {index} "
                            f"({_words(hand.melds[owner][index].cards)}): lay it off, or "
                            "discard another card", code="no_dump", card=C.text(card),
                            owner=owner, index=index,
                            cards=C.texts(hand.melds[owner][index].cards))
    hand.hands[seat].remove(card)
    hand.discard.append(card)
    if all_melded(hand.hands[seat]):
        _win(hand, seat, "tongit")
    elif not hand.stock:
        _stock_out(hand, taker=seat)
    else:
        hand.turn, hand.phase = hand.next_seat(seat), "draw"
        hand.extra["turn_no"] += 1


def _tongit(hand: Hand, seat: int, action: Action) -> None:
    if not all_melded(hand.hands[seat]):
        raise IllegalAction("you cannot call Tongit: not every card in your hand is in a meld")
    _win(hand, seat, "tongit")


def _call_draw(hand: Hand, seat: int, action: Action) -> None:
    if not hand.opened[seat]:
        raise IllegalAction("you cannot call Draw: you have not opened (exposed a meld)")
    blocker = _draw_blocker(hand, seat)
    if blocker:
        raise IllegalAction(blocker)
    hand.extra["caller"] = seat
    _ask_next(hand, seat)


def _answer(hand: Hand, seat: int, action: Action) -> None:
    if action.do == "challenge":
        hand.extra["challengers"] += (seat,)
    _ask_next(hand, seat)


def _ask_next(hand: Hand, after: int) -> None:
    """Pass the Draw to the next open seat; unopened seats fold without being asked."""
    caller = hand.extra["caller"]
    seat = hand.next_seat(after)
    while seat != caller:
        if hand.opened[seat]:
            hand.turn, hand.phase = seat, "answer"
            return
        seat = hand.next_seat(seat)
    challengers = hand.extra["challengers"]
    if not challengers:
        _win(hand, caller, "draw")
        return
    # Lowest deadwood wins. Challengers are in seat order after the caller, so the first
    # of tied challengers is the one a tie among them goes to.
    dw = deadwood(hand)
    compared = challengers + (caller,)
    low = min(dw[s] for s in compared)
    tied = [s for s in compared if dw[s] == low]
    rule = hand.options["draw_tie"]
    if len(tied) > 1 and rule == "void":
        _void(hand, [s for s in range(hand.players) if not hand.opened[s]])
        return
    winner = caller if rule == "caller" and caller in tied else tied[0]
    _win(hand, winner, "challenge")


def _stock_out(hand: Hand, taker: int) -> None:
    """The last stock card's taker finished the turn: lowest open hand wins, ties to the
    taker, then to the seats after the taker in turn order (`stock_tie`
    "last_drawer_loses": the taker comes last)."""
    order = [(taker + k) % hand.players for k in range(hand.players)]
    if hand.options["stock_tie"] == "last_drawer_loses":
        order = order[1:] + order[:1]
    open_seats = [s for s in order if hand.opened[s]]
    if open_seats:
        dw = deadwood(hand)
        _win(hand, min(open_seats, key=dw.__getitem__), "stock")   # min keeps the first of equals
        return
    _void(hand, list(range(hand.players)))


def _void(hand: Hand, burned: list[int]) -> None:
    """Nobody wins and nobody pays; the antes stay in the side pot."""
    hand.end, hand.burned = "void", burned
    _finish(hand)


# ---- helpers --------------------------------------------------------------------------

def _words(cards) -> str:
    return " ".join(C.texts(sorted(cards)))


def _check_held(hand: Hand, seat: int, cards) -> None:
    held = hand.hands[seat]
    for c in cards:
        if c not in held:
            raise IllegalAction(f"{C.text(c)} is not in your hand", code="not_held", card=C.text(c))


def _expose(hand: Hand, seat: int, cards, face_down: bool) -> None:
    held = hand.hands[seat]
    for c in cards:
        if c in held:       # a taken discard is not in the hand
            held.remove(c)
    hand.melds[seat].append(Meld(seat, sorted(cards), face_down, {c: seat for c in cards}))
    hand.opened[seat] = True


def _tongit_if_empty(hand: Hand, seat: int) -> None:
    if not hand.hands[seat]:
        _win(hand, seat, "tongit")


def _win(hand: Hand, winner: int, end: str) -> None:
    hand.end, hand.winners = end, [winner]
    hand.burned = [s for s in range(hand.players) if not hand.opened[s] and s != winner]
    _settle(hand, winner)
    _finish(hand)


def _finish(hand: Hand) -> None:
    hand.phase, hand.turn = "over", None
    hand.shown = [h[:] for h in hand.hands]


def _settle(hand: Hand, winner: int) -> None:
    opts = hand.options
    times = min(run_after(hand)[1], 4) if opts["streak_multiplier"] else 1
    caller = hand.extra["caller"]
    doubled = caller if (opts["caller_pays_double"] and hand.end == "challenge"
                         and caller != winner) else None
    hand.extra["times"], hand.extra["doubled"] = times, doubled
    base = opts["bonus"] if hand.end in ("tongit", "challenge") else 1
    held, own = hand.hands[winner], hand.melds[winner]
    # Aces the winner holds or put on its own melds (not those others laid off there).
    aces = sum(C.rank(c) == 0 for c in held) + sum(
        C.rank(c) == 0 and m.by[c] == winner for m in own for c in m.cards)
    ranks = [C.rank(c) for c in held]
    secret = sum(m.face_down for m in own) + sum(ranks.count(r) == 4 for r in set(ranks))
    long_runs = sum(len(m.cards) >= 5 for m in own)     # sets never exceed four cards
    for loser in range(hand.players):
        if loser == winner:
            continue
        k = times * (2 if loser == doubled else 1)
        hand.pay(loser, winner, k * base, "base")
        hand.pay(loser, winner, k * aces, "aces")
        hand.pay(loser, winner, k * secret * opts["bonus"], "secret sets")
        hand.pay(loser, winner, k * opts["burn_penalty"] if loser in hand.burned else 0, "burned")
        hand.pay(loser, winner, k * long_runs * opts["long_run_bonus"], "long runs")
    # Two wins in a row take the side pot, this hand's antes included.
    if opts["jackpot"] and hand.streak == winner:
        hand.pay(POT, winner, hand.pot(), "side pot")


DO = {"draw": _draw, "take": _take, "meld": _meld, "layoff": _layoff, "discard": _discard,
      "tongit": _tongit, "call_draw": _call_draw, "fold": _answer, "challenge": _answer}


# ---- scores -------------------------------------------------------------------------

def deadwood(hand: Hand) -> list[int]:
    return [split_deadwood(h) for h in hand.hands]


def next_match(hand: Hand) -> dict:
    """The winner deals next; a void hand is dealt again by the same dealer and keeps the
    streak. A second win in a row (which took the pot) starts the streak again."""
    if not hand.over:
        raise IllegalAction("the hand is not over")
    run = run_after(hand)
    run = None if run is None else {"seat": run[0], "wins": run[1]}
    if not hand.winners:
        return {"dealer": hand.dealer, "pot": hand.pot(), "streak": hand.streak, "run": run}
    winner = hand.winners[0]
    return {"dealer": winner, "pot": hand.pot(),
            "streak": None if hand.streak == winner else winner, "run": run}


def run_after(hand: Hand) -> tuple[int, int] | None:
    """(seat, wins) of the winning run once the hand's winner is known: a void hand (or
    one still in play) leaves it as it was. Counted apart from the side pot's streak."""
    if not hand.winners:
        return hand.run
    winner = hand.winners[0]
    if hand.run is not None and hand.run[0] == winner:
        return winner, hand.run[1] + 1
    return winner, 1
