"""`baraha verify FILE`: does a hand's file (API.md "The evening") hold together? The deck
and each reshuffled stock must hash, with their salts, to the commitments shown while the
hand was played, and the actions must replay to the file's `result`. Each finding names
the place that differs."""
from __future__ import annotations

import json

from ..engine import cards as C
from ..engine.errors import BadCard
from ..engine.scenario import ScenarioError, load, play
from . import seal


def _canon(raw) -> list:
    out = []
    for c in raw if isinstance(raw, list) else []:
        try:
            out.append(C.parse(c))
        except BadCard:
            out.append(str(c))      # hashed as written: it will not match
    return out


def findings(doc: dict) -> list[str]:
    """What does not hold, one line each (empty: the file verifies)."""
    found = []
    fair = doc.get("fairness")
    if not isinstance(fair, dict):
        return ["fairness: missing: the file carries no seal to check"]
    salt, commit = fair.get("salt"), fair.get("commitment")
    deck = (doc.get("deal") or {}).get("deck") if isinstance(doc.get("deal"), dict) else None
    if not isinstance(salt, str) or not seal.SALT.match(salt):
        found.append("fairness.salt: not 64 lower-case hex digits")
    elif not isinstance(deck, list):
        found.append("deal.deck: missing: a sealed hand's file names the whole deck")
    elif seal.commitment(salt, _canon(deck)) != commit:
        if fair.get("deck_sha256") not in (None, seal.deck_digest(_canon(deck))):
            found.append("deal.deck: the deck is not the one sealed at the deal (a card "
                         "differs): it does not hash to fairness.commitment")
        else:
            found.append("fairness.salt: the salt is not the one sealed at the deal: salt "
                         "and deck do not hash to fairness.commitment")
    actions = doc.get("actions") if isinstance(doc.get("actions"), list) else []
    stocks = [(i, a["stock"]) for i, a in enumerate(actions)
              if isinstance(a, dict) and a.get("do") == "draw" and "stock" in a]
    sealed = fair.get("reshuffles") or []
    if len(stocks) != len(sealed):
        found.append(f"fairness.reshuffles: {len(sealed)} sealed, but the actions reshuffle "
                     f"{len(stocks)} times")
    for k, ((i, stock), s) in enumerate(zip(stocks, sealed)):
        if not isinstance(s, dict) or seal.commitment(str(s.get("salt")), _canon(stock)) \
                != s.get("commitment"):
            found.append(f"actions[{i}].stock or fairness.reshuffles[{k}]: the reshuffled "
                         "stock and its salt do not hash to its commitment")
    try:
        hand, acts = load(json.dumps(doc))
    except ScenarioError as e:
        return found + [f"not a valid hand: {e}"]
    out, ok = play(hand, acts)
    if not ok:
        err = out["error"]
        found.append(f"actions[{err['index']}]: refused on replay: {err['message']}")
    result = doc.get("result")
    if not isinstance(result, dict):
        found.append("result: missing")
    else:
        differ = [f"{k} {json.dumps(out.get(k))}, not {json.dumps(result.get(k))}"
                  for k in out | result if out.get(k) != result.get(k)]
        if differ:
            found.append("result: the actions replay to another result (" + "; ".join(differ)
                         + ")")
    return found
