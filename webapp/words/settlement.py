"""The settlement in plain words: who called, challenged, folded or dropped and with what
count, why the winner won, each payment named ("3 for winning a challenged Draw", "1 for
each ace: A♣"), and the antes as one line. Reads only the finished hand's view."""
from __future__ import annotations

from .catalog import CATALOG


def plural(words, key: str, count: int) -> str:
    """A sentence with a count: "<key>.one" for one, "<key>.many" otherwise (gettext's
    ngettext takes both templates and the count)."""
    return words.t(CATALOG[f"{key}.one" if count == 1 else f"{key}.many"])


def calls(words) -> list[str]:
    """Who ended the hand and how each other seat answered, each with its count."""
    r, events = words.view["result"], words.view.get("events") or []
    counts = r["deadwood"]
    out = []
    if words.game == "tongits" and r["end"] in ("draw", "challenge"):
        caller = next((e["seat"] for e in events if e["do"] == "call_draw"), None)
        if caller is None:
            return []
        out.append(words.say("called.call_draw", caller, count=counts[caller]))
        answered = {e["seat"]: e["do"] for e in events if e["do"] in ("challenge", "fold")}
        n = len(counts)
        for s in [(caller + i) % n for i in range(1, n)]:
            # A seat that never opened is not asked: it could not challenge, and says so.
            do = answered.get(s, "unopened")
            out.append(words.say(f"called.{do}", s, count=counts[s]))
    elif words.game == "tonk" and r["end"] in ("drop", "caught"):
        dropper = next((e["seat"] for e in reversed(events) if e["do"] == "drop"), None)
        if dropper is not None:
            out.append(words.say("called.drop", dropper, count=counts[dropper]))
    return out


def because(words) -> list[str]:
    """Why the winner won (Tong-its); Tonk's endings already say it ("won the drop with 4")."""
    r = words.view["result"]
    if words.game == "tongits" and r["end"] in ("challenge", "draw", "tongit", "stock"):
        return [words.say(f"because.{r['end']}", w, count=r["deadwood"][w]) for w in r["winners"]]
    return words.ending(words.view.get("events") or [])


def house(words) -> list[str]:
    """What the house rules of the apps did: the winner's run multiplier ("x3: third win in
    a row") and the caller who pays double."""
    r, out = words.view["result"], []
    times, run = r.get("times") or 1, r.get("run")
    if times > 1 and run:
        key = f"times.{run['wins']}" if run["wins"] <= 4 else "times.more"
        out.append(words.t(CATALOG[key]).format(wins=run["wins"]))
    if r.get("doubled") is not None:
        out.append(words.say("doubled", r["doubled"]))
    return out


def times(r: dict, payer) -> int:
    """How many times over a loser pays each line (a winning run, a caller's double)."""
    k = r.get("times") or 1
    return k * 2 if payer is not None and payer == r.get("doubled") else k


def antes(words) -> str | None:
    """All the antes as one line; the first deal says that they are the minus beside every name."""
    lines = [ln for ln in words.view["result"]["lines"] if ln["why"] == "ante"]
    if not lines:
        return None
    each = lines[0]["chips"]
    key = "antes.first" if words.view.get("hand_number") == 1 else "antes"
    return words.t(CATALOG[key]).format(chips=each, total=each * len(lines))


def payment(words, ln: dict) -> str:
    """What one payment is for, with its chips: "3 for winning a challenged Draw"."""
    why, chips, r = ln["why"], ln["chips"], words.view["result"]
    if why == "base":
        key = {"challenge": "pay.base.challenge", "tongit": "pay.base.tongit"}.get(r["end"], "pay.base")
        return words.t(CATALOG[key]).format(chips=chips)
    if why == "aces":
        aces, k = winners_aces(words, ln["to"]), times(r, ln["from"])
        if k > 1 and len(aces) * k == chips:    # "1 for each ace" is no longer true
            return words.t(CATALOG["pay.aces.times"]).format(chips=chips, cards=words.cards(aces))
        if len(aces) == chips:
            return plural(words, "pay.aces", chips).format(chips=chips, cards=words.cards(aces))
    if why == "secret sets":
        sets = secret_sets(words, ln["to"])
        if sets:
            return plural(words, "pay.secret sets", len(sets)).format(
                chips=chips, count=len(sets), sets=words.join(sets))
    if why == "long runs":
        runs = sum(len(m["cards"] or []) >= 5 for m in words.view.get("melds") or [] if m["seat"] == ln["to"])
        return plural(words, "pay.long runs", runs).format(chips=chips, count=runs)
    key = f"pay.{why}"
    if key in CATALOG:
        return words.t(CATALOG[key]).format(chips=chips)
    return f"{chips} {words.why(why)}"


def winners_aces(words, seat) -> list[str]:
    """The aces that pay: held, or put on the winner's own melds by the winner itself."""
    r, events = words.view["result"], words.view.get("events") or []
    others = {e["card"] for e in events if e["do"] == "layoff" and e.get("seat") != seat}
    melded = [c for m in words.view.get("melds") or [] if m["seat"] == seat for c in m["cards"] or []]
    return [c for c in (r["hands"][seat] or []) + melded if c[:-1] == "A" and c not in others]


def secret_sets(words, seat) -> list[str]:
    """Each secret set of the winner as "four 6s": a face-down meld, or four of a rank held."""
    ranks = [m["cards"][0][:-1] for m in words.view.get("melds") or []
             if m["seat"] == seat and m.get("face_down") and m["cards"]]
    held = [c[:-1] for c in words.view["result"]["hands"][seat] or []]
    ranks += sorted({r for r in held if held.count(r) == 4}, key=held.index)
    return [words.t(CATALOG["four"]).format(rank=r) for r in ranks]
