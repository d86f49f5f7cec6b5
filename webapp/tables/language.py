"""The table's own actions, beside the engine's: "next" (a person asks for the next hand),
"close" (the host ends the table) and "back" (a seat the turn timer made away is back). Each says whether a client may send it in an
action, when it is offered in `legal`, what it checks, and what it does once journaled:
checks.parse_action, the journal and the view all go through TABLE_ACTIONS."""
from __future__ import annotations

from . import match
from .errors import Forbidden, Illegal

NOT_DEALT = "the first hand has not been dealt yet: it starts when every seat is taken"


def check_host(table, by: int | None) -> None:
    """Only the host may, when the asking seat is known (`by` None: the server itself)."""
    if by is not None and by != table.host:
        raise Forbidden(f"only the host ({table.seat_name(table.host)}) can do that",
                        code="host_only", facts={"host": table.host})


class TableAction:
    do = ""
    sent = False            # may come in POST .../actions (else only from its own call)
    closes = False          # the store marks the table closed when it is journaled
    any_version = False     # a page may send it on the current version, whatever it showed

    def offered(self, table, seat: int) -> bool:
        return False

    def check(self, table, seat: int | None) -> None:
        """Refuse, naming why; nothing is written before this passes."""

    def apply(self, table, seat: int | None) -> None:
        raise NotImplementedError


class Next(TableAction):
    do, sent, any_version = "next", True, True

    def offered(self, table, seat):
        me = table.seats[seat]
        return (table.hand is not None and table.hand.over and not me.bot and not me.ready
                and not table.closed and not table.match_over)

    def check(self, table, seat):
        if table.hand is None:
            raise Illegal(NOT_DEALT)
        if not table.hand.over:
            raise Illegal("the hand is still being played")
        if table.match_over:
            raise Illegal("the match is over: send rematch to play again",
                          code="match_over")
        if table.seats[seat].ready:
            waiting = [s for s, st in enumerate(table.seats) if not st.bot and not st.ready]
            raise Illegal("you have already asked for the next hand; waiting for "
                          + ", ".join(map(table.seat_name, waiting)),
                          code="already_next", facts={"seats": waiting})

    def apply(self, table, seat):
        table.seats[seat].ready = True


class Rematch(TableAction):
    """"Play again" once a match is over: the same seats and bots, a new match (match.py)."""
    do, sent, any_version = "rematch", True, True

    def offered(self, table, seat):
        return table.match_over and not table.seats[seat].bot and not table.closed

    def check(self, table, seat):
        if not table.match_over:
            raise Illegal("the match is not over: there is nothing to play again yet",
                          code="match_not_over")

    def apply(self, table, seat):
        match.rematch(table)


class Close(TableAction):
    do, closes = "close", True

    def check(self, table, seat):
        check_host(table, seat)

    def apply(self, table, seat):
        table.closed = True


class Back(TableAction):
    """A seat the turn timer made away says its person is back (tables/timer.py)."""
    do, sent, any_version = "back", True, True

    def offered(self, table, seat):
        return table.pace.timed_away(seat) and not table.closed

    def check(self, table, seat):
        if not table.pace.timed_away(seat):
            raise Illegal("you are not away: nothing to come back from", code="not_away")

    def apply(self, table, seat):
        table.pace.missed.pop(seat, None)


TABLE_ACTIONS: dict[str, TableAction] = {a.do: a for a in (Next(), Rematch(), Close(), Back())}


def offered(table, seat: int) -> tuple[dict, ...]:
    return tuple({"do": a.do} for a in TABLE_ACTIONS.values() if a.offered(table, seat))
