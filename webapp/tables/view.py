"""View assembly: the table's facts handed to the engine's view_for, built once."""
from __future__ import annotations

from ..engine.views import SeatFacts, TableFacts, View, view_for
from ..words import log_lines
from . import dealing, language, match, timer


def table_view(table, seat: int | None, acting: bool = False, worded: bool = True,
               watcher: bool = False) -> View:
    """`watcher`: a watcher's view, behind `seat` (its hand shown) or None (no hand)."""
    chips = dealing.chips(table)
    me = table.seats[seat] if seat is not None else None
    facts = TableFacts(
        game=table.game, players=table.players, options=table.options, code=table.code,
        version=table.version, hand_number=table.hand_number, host=table.host,
        closed=table.closed,
        seats=tuple(SeatFacts(st.name, st.bot, st.sockets > 0, chips[s], st.ready,
                              timer.away(table, s))
                    for s, st in enumerate(table.seats)),
        versions=tuple(table.versions),
        # A person sees the seat a bot plays for them, without its moves.
        may_act=not table.closed and me is not None and (acting or not me.bot),
        offered=language.offered(table, seat) if me is not None and not watcher else (),
        deal_commitment=table.sealed, seals=table.seals,
        watcher=watcher, deadline=timer.deadline_shown(table),
        auto=frozenset(table.pace.auto))
    # A bot about to act reads events, not sentences, and a page words its own story
    # (webapp/web/present.py): only the JSON view's `log` is worded here.
    view = view_for(table.hand, seat, facts,
                    describe=log_lines if worded and not acting else None)
    view["options"].update(table.match_rules)
    view["match_play"] = match.summary(table)
    view["options"].update(table.pace.options)      # the timer's and watchers' options too
    if not worded:      # a page's view: the signal it is as new as (webapp/realtime/)
        view["told"] = table.told_mark()
    return view
