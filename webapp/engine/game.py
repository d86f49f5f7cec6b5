"""One entry point for both games: set up a hand, list legal actions, apply, score.

Everything outside the engine goes through these functions (and views.view_for); the
game modules hold the rules.
"""
from __future__ import annotations

from . import tongits, tonk
from .actions import Action
from .cards import text
from .errors import BadSetup, IllegalAction
from .hand import Event, Hand
from .melds import best_split
from .options import resolve

GAMES = {"tongits": tongits, "tonk": tonk}
TITLES = {"tongits": "Tong-its", "tonk": "Tonk"}


def player_counts(game: str, options: dict) -> range:
    return GAMES[game].player_counts(options)


def new_hand(game: str, players: int, *, dealer: int = 0, options: dict | None = None,
             match: dict | None = None, deck: list[int] | None = None,
             hands: list[list[int]] | None = None, discard: list[int] | None = None,
             stock: list[int] | None = None) -> Hand:
    """Set up a hand from a full deck order (dealt as the rules say) or from a layout.

    Cards are ints; `deck` and `stock` are top first; `discard` is bottom first. With a
    layout, cards not listed anywhere go to the bottom of the stock in deck order.
    Raises BadSetup naming the problem and its place ('deal.hands[1]').
    """
    if game not in GAMES:
        raise BadSetup(f"unknown game {game!r} (tongits or tonk)", "game")
    rules = GAMES[game]
    opts = resolve(game, options)
    counts = rules.player_counts(opts)
    if isinstance(players, bool) or not isinstance(players, int) or players not in counts:
        title = TITLES[game]
        raise BadSetup(f"{title} is played by {counts.start} to {counts.stop - 1} players"
                       if len(counts) > 1 else f"{title} is played by exactly {counts.start} players",
                       "players")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise BadSetup(f"dealer must be a seat from 0 to {players - 1}", "dealer")
    full = rules.deck(opts)
    if deck is not None:
        _check_unique([("deal.deck", deck)])
        _check_joker([("deal.deck", deck)], full)
        if len(deck) != len(full):
            raise BadSetup(f"a deck has {len(full)} cards, not {len(deck)}", "deal.deck")
        hands, discard, stock = rules.deal(list(deck), players, dealer, opts)
    else:
        hands, discard, stock = hands or [], list(discard or []), list(stock or [])
        sizes = rules.hand_sizes(players, dealer, opts)
        if len(hands) != players:
            raise BadSetup(f"deal.hands must list {players} hands, not {len(hands)}", "deal.hands")
        for s, (h, n) in enumerate(zip(hands, sizes)):
            if len(h) != n:
                raise BadSetup(f"seat {s} must be dealt {n} cards, not {len(h)}", f"deal.hands[{s}]")
        groups = ([(f"deal.hands[{s}]", h) for s, h in enumerate(hands)]
                  + [("deal.discard", discard), ("deal.stock", stock)])
        _check_unique(groups)
        _check_joker(groups, full)
        used = {c for h in hands for c in h} | set(discard) | set(stock)
        stock = stock + [c for c in full if c not in used]
        if not stock:
            raise BadSetup("the stock must not be empty", "deal.stock")
    hand = rules.start(players, dealer, opts, [list(h) for h in hands], discard, stock,
                       _match(match, players))
    hand.events.append(Event())     # the deal comes first, even when it ends the hand
    return hand


def _check_unique(groups: list[tuple[str, list[int]]]) -> None:
    seen: dict[int, str] = {}
    for place, cards in groups:
        for i, c in enumerate(cards):
            if c in seen:
                raise BadSetup(f"{text(c)} is dealt twice (also in {seen[c]})", f"{place}[{i}]")
            seen[c] = place


def _check_joker(groups: list[tuple[str, list[int]]], full) -> None:
    for place, cards in groups:
        if not cards or max(cards) < len(full):
            continue
        for i, c in enumerate(cards):
            if c >= len(full):
                raise BadSetup("there is no joker in this game: only Tonk with wilds "
                               "\"deuces_joker\" plays one", f"{place}[{i}]")


def deck(game: str, options: dict) -> tuple[int, ...]:
    """Every card of the game's deck in canonical order (Tonk's joker last, when it plays)."""
    return GAMES[game].deck(resolve(game, options))


def _match(match: dict | None, players: int) -> dict:
    match = {} if match is None else match
    if not isinstance(match, dict):
        raise BadSetup("match must be an object", "match")
    pot, streak, run = match.get("pot", 0), match.get("streak"), match.get("run")
    if isinstance(pot, bool) or not isinstance(pot, int) or pot < 0:
        raise BadSetup("match.pot must be a whole number from 0", "match.pot")
    if streak is not None and (isinstance(streak, bool) or not isinstance(streak, int)
                               or not 0 <= streak < players):
        raise BadSetup(f"match.streak must be null or a seat from 0 to {players - 1}",
                       "match.streak")
    return {"pot": pot, "streak": streak, "run": _run(run, players)}


def _run(run: object, players: int) -> tuple[int, int] | None:
    """match.run, {"seat": S, "wins": N}, as (S, N); None when absent or null."""
    if run is None:
        return None
    if not isinstance(run, dict):
        raise BadSetup('match.run must be null or an object like {"seat": 0, "wins": 2}',
                       "match.run")
    seat, wins = run.get("seat"), run.get("wins")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise BadSetup(f"match.run.seat must be a seat from 0 to {players - 1}", "match.run.seat")
    if isinstance(wins, bool) or not isinstance(wins, int) or wins < 1:
        raise BadSetup("match.run.wins must be a whole number from 1", "match.run.wins")
    return seat, wins


def legal_actions(hand: Hand, seat: int | None = None) -> list[Action]:
    """Every action the seat to act may take now (empty for any other seat, or when over)."""
    if hand.over or (seat is not None and seat != hand.turn):
        return []
    return GAMES[hand.game].legal_actions(hand)


def apply(hand: Hand, action: Action) -> Hand:
    """The hand after `action`, or IllegalAction saying why; `hand` itself never changes."""
    if hand.over:
        raise IllegalAction("the hand is over")
    if action.seat is None or not 0 <= action.seat < hand.players:
        raise IllegalAction(f"there is no seat {action.seat} at this table")
    if action.stands and action.do not in ("meld", "layoff", "take"):
        raise IllegalAction(f"'as' names what wild cards stand for in a spread; a {action.do} "
                            "takes none")
    if action.stock is not None and action.do != "draw":
        raise IllegalAction(f"'stock' belongs only on a draw that reshuffles, not on a {action.do}")
    if hand.game == "tongits" and (action.stands or action.stock is not None):
        raise IllegalAction("Tong-its has no wild cards and no reshuffled stock")
    new = GAMES[hand.game].apply(hand, action)
    new.events.append(Event(action, _moved(hand, new, action)))
    return new


def _moved(before: Hand, after: Hand, action: Action) -> int | None:
    """The card an action moved without naming it: the one drawn, or the discard taken.
    Read from the two states, so a game's own kinds of draw (a reshuffle) need nothing."""
    if action.do == "take":
        if action.card is not None:         # Tonk's take_from top_two names the card
            return action.card
        return before.discard[-1] if before.discard else None
    if action.do == "draw":
        new = set(after.hands[action.seat]) - set(before.hands[action.seat])
        return next(iter(new)) if len(new) == 1 else None
    return None


def most_cards(game: str, options: dict) -> int:
    """The most cards one hand can hold (a screen keeps room for them)."""
    return GAMES[game].most_cards(resolve(game, options))


def reshuffle_pile(hand: Hand) -> list[int] | None:
    """The cards a draw now must carry as its new `stock` (Tonk's reshuffle), or None."""
    if hand.game == "tonk" and not hand.over and hand.phase == "draw" and tonk.house.reshuffles(hand):
        return hand.discard[:-1]
    return None


def deadwood(hand: Hand) -> list[int]:
    """Each seat's count now (Tong-its: best split; Tonk: the whole hand)."""
    return GAMES[hand.game].deadwood(hand)


def split_cards(game: str, options: dict, cards) -> list[tuple[tuple[int, ...], tuple | None]]:
    """`cards` split into melds as well as they can be under the game and its options (a
    full option set, as a hand keeps), as (cards, stands): Tong-its and plain Tonk by
    melds.py (stands None), Tonk's house rules with each wild and what it stands for."""
    if game == "tonk" and not tonk.house.plain(options):
        return tonk.house.held_spreads(cards, options)
    return [(m, None) for m in best_split(cards)[1]]


def outcome(hand: Hand) -> dict:
    """The replay output's fields (without `error`)."""
    out = {
        "status": "over" if hand.over else "playing",
        "end": hand.end,
        "winners": list(hand.winners),
        "deadwood": deadwood(hand),
        "burned": list(hand.burned),
        "net": hand.net(),
        "pot": hand.pot(),
    }
    if hand.game == "tongits" and hand.options["streak_multiplier"]:
        run = tongits.run_after(hand)
        out["run"] = None if run is None else {"seat": run[0], "wins": run[1]}
    out["turn"] = hand.turn
    return out


def next_match(hand: Hand) -> dict:
    """After a finished hand: {"dealer", "pot", "streak"} (Tong-its also "run": {"seat",
    "wins"} or None) for the next one."""
    return GAMES[hand.game].next_match(hand)
