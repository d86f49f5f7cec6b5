"""The match at a glance (the match screen and GET /api/tables/CODE/match): each seat's
total, its running total after every hand, the hands it won and how they ended, and the
biggest hand. Made from the finished hands' summaries (history.py) of the match being
played, or just over; with match play off, the whole evening is one match."""
from __future__ import annotations

from . import history, match


def report(table) -> dict:
    with table.lock:
        first, number, over = table.match_from, table.match_number, table.match_over
        names = [st.name for st in table.seats]
        bots = [st.bot for st in table.seats]
        winners = match.winners(table) if over else []
        rules = dict(table.match_rules)
    hands = [h for h in history.hands(table) if h["number"] >= first]
    running = [[0] for _ in range(table.players)]
    wins: list[dict[str, int]] = [{} for _ in range(table.players)]
    for h in hands:
        for s in range(table.players):
            running[s].append(running[s][-1] + h["net"][s])
        for w in h["winners"]:
            wins[w][h["end"]] = wins[w].get(h["end"], 0) + 1
    biggest = None
    for h in hands:
        top = max(h["net"])
        if top > 0 and (biggest is None or top > biggest["chips"]):
            biggest = {"number": h["number"], "seat": h["net"].index(top), "chips": top,
                       "end": h["end"]}
    totals = [r[-1] for r in running]
    return {"number": number, "first_hand": first, "over": over, "winners": winners,
            "match_hands": rules["match_hands"], "match_target": rules["match_target"],
            "game": table.game, "hands": [h["number"] for h in hands],
            "players": [{"seat": s, "name": names[s], "bot": bots[s], "total": totals[s],
                         "running": running[s], "won": sum(wins[s].values()), "how": wins[s]}
                        for s in range(table.players)],
            "biggest": biggest}
