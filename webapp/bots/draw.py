"""Calling Draw in Tong-its: what a Draw pays each seat, and how the normal and hard
players call and answer one. Hard's reckoning takes guessed hands (guess.py) as given;
expert (expert.py) builds its own Draw on the same pieces."""
from __future__ import annotations

from ..engine.cards import rank, value
from ..engine.melds import deadwood
from .common import Table


def avg_unseen(t: Table) -> float:
    u = t.unseen()
    return sum(value(c) for c in u) / len(u) if u else 6.5


def guess_deadwood(t: Table, seat: int) -> float:
    """A rough count for another seat: its cards, about half of them left over."""
    return t.counts[seat] * avg_unseen(t) * 0.5


# The normal player's rules take the seat and its count, so that the hard player can ask
# what a sensible opponent would do with a hand it has guessed.

def normal_calls(t: Table, seat: int, mine: int) -> bool:
    others = [s for s in range(t.players) if s != seat and t.opened[s]]
    if not others:
        return True
    best = min(guess_deadwood(t, s) for s in others)
    # A lost challenge costs double under caller_pays_double: call only lower.
    share = CALL_SHARE * (0.7 if t.options.get("caller_pays_double") else 1.0)
    return mine <= min(CALL_MAX, best * share)


def normal_challenges(t: Table, caller: int, mine: int) -> bool:
    """A caller's count is unknown, but it called, so it is likely lower than its cards
    suggest: challenge with a count under that (a caller may be bluffing, too)."""
    return mine <= max(8.0, min(28.0, 0.8 * guess_deadwood(t, caller)))


CALL_MAX, CALL_SHARE = 12, 0.45


def since_call(t: Table):
    """The events since the last Draw was called, latest first."""
    out = []
    for e in reversed(t.events):
        if e.kind == "call":
            break
        out.append(e)
    return out


def aces_of(t: Table, seat: int, hand) -> int:
    """Aces a winner at `seat` would be paid for: in hand and in its face-up melds."""
    return sum(rank(c) == 0 for c in hand) + sum(
        rank(c) == 0 for _, cards in t.melds_of(seat) for c in cards)


def settle_draw(t: Table, caller: int, dws: dict, aces: dict, challengers: list[int]) -> dict:
    """Each seat's chips from a Draw: lowest count wins, a tie as `draw_tie` says (to the
    challengers before the caller by default); a losing caller may pay double."""
    base = 1
    winner = caller
    net = {s: 0 for s in range(t.players)}
    if challengers:
        base = t.options["bonus"]
        compared = challengers + [caller]
        low = min(dws[s] for s in compared)
        tied = [s for s in compared if dws[s] == low]
        rule = t.options.get("draw_tie", "challenger")
        if len(tied) > 1 and rule == "void":
            return net
        winner = caller if rule == "caller" and caller in tied else tied[0]
    double = bool(challengers) and winner != caller and t.options.get("caller_pays_double")
    for s in range(t.players):
        if s == winner:
            continue
        pay = base + aces[winner] + (t.options["burn_penalty"] if not t.opened[s] else 0)
        pay *= 2 if double and s == caller else 1
        net[s] -= pay
        net[winner] += pay
    return net


def answer_order(t: Table, caller: int) -> list[int]:
    return [t.next_seat(caller, k) for k in range(1, t.players)
            if t.opened[t.next_seat(caller, k)]]


def modelled_answers(t: Table, caller: int, dws: dict, fixed: dict,
                     shrewd: bool = False) -> list[int]:
    """Challengers of a Draw when the other seats answer like normal players, or, when
    `shrewd`, like players who somehow know they hold the lower count (`fixed`: answers
    already given or being weighed)."""
    out = []
    for s in answer_order(t, caller):
        if s in fixed:
            yes = fixed[s]
        elif shrewd:
            yes = bool(out) or dws[s] <= dws[caller]
        else:
            yes = bool(out) or normal_challenges(t, caller, dws[s])
        if yes:
            out.append(s)
    return out


def call_value(t: Table, samples, mine: int) -> float:
    """The hard player's expected chips of calling Draw with count `mine` on `samples`."""
    return call_values(t, samples)(mine)


def call_values(t: Table, samples):
    """call_value as a function of the count, the samples' counts and aces read once (a
    threshold on the count asks for several counts)."""
    rows = []
    for s in samples:
        dws = {seat: deadwood(h) for seat, h in s.hands.items()}
        aces = {seat: aces_of(t, seat, h) for seat, h in s.hands.items()}
        aces[t.me] = aces_of(t, t.me, t.hand)
        rows.append((s.weight, dws, aces))
    order = answer_order(t, t.me)
    limit = max(8.0, min(28.0, 0.8 * guess_deadwood(t, t.me)))     # normal_challenges

    def value(mine: int) -> float:
        ev = total = 0.0
        for weight, counts, aces in rows:
            dws = counts | {t.me: mine}
            for shrewd in (False, True):
                challengers = []
                for seat in order:
                    if challengers or dws[seat] <= (mine if shrewd else limit):
                        challengers.append(seat)
                ev += weight * settle_draw(t, t.me, dws, aces, challengers)[t.me] / 2
            total += weight
        return ev / max(total, 1e-9)
    return value


CALL_EDGE = -1.0  # chips; tuned against playouts (docs/BOTS.md)


def answers_given(t: Table) -> dict[int, bool]:
    """Seats that answered the Draw being answered: seat -> challenged."""
    return {e.seat: e.kind == "challenge" for e in since_call(t)
            if e.kind in ("challenge", "fold") and e.seat is not None}


def challenge_gain(t: Table, samples, caller: int, mine: int) -> float:
    """The hard player's chips of challenging over folding, with count `mine`, on `samples`."""
    return challenge_gains(t, samples, caller)(mine)


def challenge_gains(t: Table, samples, caller: int):
    """challenge_gain as a function of the count, what does not depend on it read once."""
    answered = answers_given(t)
    # A caller with a count a sensible player would not call with is less likely.
    rows = []
    for s in samples:
        dws = {seat: deadwood(h) for seat, h in s.hands.items()}
        aces = {seat: aces_of(t, seat, h) for seat, h in s.hands.items()}
        aces[t.me] = aces_of(t, t.me, t.hand)
        w = s.weight * (1.0 if normal_calls(t, caller, dws[caller]) else 0.1)
        rows.append((w, dws, aces))
    order = answer_order(t, caller)
    limit = max(8.0, min(28.0, 0.8 * guess_deadwood(t, caller)))     # normal_challenges

    def gain_of(mine: int) -> float:
        gain = total = 0.0
        for w, counts, aces in rows:
            dws = counts | {t.me: mine}
            nets = []
            for yes in (True, False):
                fixed = answered | {t.me: yes}
                challengers = []
                for seat in order:
                    ok = fixed[seat] if seat in fixed else bool(challengers) or dws[seat] <= limit
                    if ok:
                        challengers.append(seat)
                nets.append(settle_draw(t, caller, dws, aces, challengers)[t.me])
            gain += w * (nets[0] - nets[1])
            total += w
        return gain
    return gain_of
