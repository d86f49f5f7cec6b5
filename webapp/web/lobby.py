"""The home page: create a table (game, players, bots, every house rule) or join with a code.

Creating goes through the same `Tables.create` and `Table.join` as the JSON API; the
creator takes seat 1 and gets the seat cookie, then lands on the table page.
"""
from __future__ import annotations

from flask import Blueprint, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _, lazy_gettext as _l

from ..engine.options import OPTIONS as RULE_BOOK
from ..tables.errors import WebError
from ..tables.cookies import cookie_name, seat_tokens
from ..tables import BOT_LEVELS, tables_of
from ..tables.match import OPTIONS as MATCH, TABLE_OPTIONS
from . import guard, inputs, present

bp = Blueprint("lobby", __name__)

COOKIE_AGE = 30 * 24 * 3600
NAME_COOKIE = "baraha-name"      # remembered to fill in the name next time (not a secret)

GAMES = {"tongits": "Tong-its", "tonk": "Tonk"}
# Every option a new table takes: the rule book's, then the table's own (match play, hints).
OPTIONS = {game: RULE_BOOK[game] + MATCH + TABLE_OPTIONS for game in GAMES}
PLAYERS = {"tongits": (2, 3), "tonk": (2, 3, 4, 5, 6)}
BLURBS = {"tongits": _l("2 or 3 players · melds, Draw, burned"), "tonk": _l("2 to 6 · lowest count, drop")}
LEVEL_WORDS = {"easy": _l("easy"), "normal": _l("normal"), "hard": _l("hard"), "expert": _l("expert")}

# Words for the house rules (names as in shared/rules; help text from engine/options.py,
# translated where it is shown: babel.cfg extracts it). _l: translated when rendered, in
# the language of the phone asking.
LABELS = {
    "jackpot": _l("Side pot ante"), "bonus": _l("Bonus"), "burn_penalty": _l("Burn penalty"),
    "long_run_bonus": _l("Long run bonus"), "sapaw_blocks_draw": _l("A lay-off blocks Draw"),
    "stake": _l("Stake"), "hand_size": _l("Cards dealt"), "upcard": _l("Turn up a first discard"),
    "deal_tonk": _l("Tonk on the deal"), "low_deal_double": _l("Low deal wins double"),
    "hit_lock": _l("Hit lock (turns)"), "tonk_out_needs_spread": _l("Tonk out needs a spread"),
    "stock_out": _l("When the stock runs out"), "wilds": _l("Wild cards"),
    "face_values": _l("Jacks, queens, kings count"), "ace_high": _l("Ace above the king"),
    "take_to_spread": _l("Take the discard only to spread it"), "must_spread": _l("No spread kept in hand"),
    # the house rules of the apps and of other tables
    "draw_tie": _l("Tied Draw"), "stock_tie": _l("Tie when the stock runs out"),
    "no_dump": _l("No dumping a card that fits"), "streak_multiplier": _l("Winning runs pay more"),
    "caller_pays_double": _l("A losing caller pays double"), "take_from": _l("Take from the discards"),
    "match_hands": _l("Match: hands"), "match_target": _l("Match: first to (chips)"),
    "hints": _l("Hints (for learning)"),
}
CHOICE_WORDS = {"next_turn": _l("next turn only"), "hand": _l("the whole hand"), "49-50": _l("49 or 50"),
                "50": _l("50 only"), "lowest": _l("lowest count wins"), "void": _l("void hand"),
                "reshuffle": _l("reshuffle the discards"), "none": _l("none"), "deuces": _l("the 2s"),
                "deuces_joker": _l("the 2s and a joker"), "10": _l("10 each"), "11-13": _l("11, 12, 13"),
                "challenger": _l("the challenger wins"), "caller": _l("the caller wins"),
                "last_drawer_wins": _l("the last drawer wins"),
                "last_drawer_loses": _l("the last drawer never wins"),
                "top": _l("the top card"), "top_two": _l("either of the top two"),
                True: _l("on"), False: _l("off")}


def show(value) -> str:
    if isinstance(value, bool):
        return CHOICE_WORDS[value]
    if isinstance(value, str):
        return CHOICE_WORDS.get(value, value)
    return str(value)


def option_fields(game: str) -> list[dict]:
    """Each house rule as a form field: its kind, choices, default and help."""
    out = []
    for o in OPTIONS[game]:
        kind = "number" if not o.choices else "choice"
        out.append({"name": o.name, "field": f"{game}.{o.name}", "group": o.group,
                    "label": LABELS.get(o.name, o.name),
                    "help": _(o.help), "kind": kind, "low": o.low, "high": o.high,
                    "default": o.default, "default_text": show(o.default),
                    "choices": [(str(c).lower() if isinstance(c, bool) else str(c), show(c),
                                 c == o.default and type(c) is type(o.default))
                                for c in o.choices]})
    return out


# On the first screen of making a table, not in the collapsed house rules.
FIRST_SCREEN = ("hints",)


def rules_for(game: str, options: dict) -> list[dict]:
    """The house rules in force at a table, for the panel everyone can open."""
    return [{"label": LABELS.get(o.name, o.name), "value": show(options.get(o.name, o.default)),
             "default": show(o.default), "help": _(o.help), "group": o.group,
             "changed": options.get(o.name, o.default) != o.default}
            for o in OPTIONS[game]]


def read_options(game: str, form) -> dict:
    """Form strings to option values of the right type (the engine checks the values)."""
    options = {}
    for o in OPTIONS[game]:
        raw = form.get(f"{game}.{o.name}")
        if raw is None or raw == "":
            continue
        raw = raw.strip()
        if isinstance(o.default, bool):
            value = {"true": True, "false": False}.get(raw.lower(), raw)
        elif isinstance(o.default, int):
            number = inputs.whole(raw, 6)       # else the text: the engine names it
            value = raw if number is None else number
        else:
            value = raw
        if value != o.default or type(value) is not type(o.default):
            options[o.name] = value
    return options


TURN_SECONDS = (15, 20, 30, 45, 60, 90, 120, 180, 300)     # the menu; the API takes 15-300


def read_pace(form) -> dict:
    """The turn timer and watchers fields (both games) as table options."""
    pace = {}
    raw = (form.get("pace.turn_seconds") or "0").strip()
    seconds = inputs.whole(raw, 4)
    pace["turn_seconds"] = raw if seconds is None else seconds      # the table checks it
    if (form.get("pace.watchers") or "true") == "false":
        pace["watchers"] = False
    return pace


@bp.record_once
def _setup(state) -> None:
    guard.install(state.app)
    present.install(state.app)


def held_tables() -> list[str]:
    """The codes of the open tables where this browser holds a seat (its seat cookies, a
    few at most): the home page offers "Back to table K7QF" first."""
    codes = []
    tables = tables_of(current_app)
    for code, token in list(seat_tokens(request.cookies).items())[:40]:
        if len(codes) >= 3:
            break
        if not tables.ours(code):
            codes.append(code)      # another process's (--shard): its page says the rest
            continue
        try:
            table = tables.get(code)
            table.seat_of(token)
        except WebError:
            continue
        if not table.closed:
            codes.append(table.code)
    return codes


def own_tables() -> list[dict]:
    """At its cap of open tables, the tables this phone made (its address: the ones the
    cap counts), each with the seat this browser holds there: the host's may close it,
    another seat may leave it (templates/lobby/_own_tables.html). Empty below the cap."""
    tables = tables_of(current_app)
    if not tables.at_cap(request.remote_addr):
        return []
    held = seat_tokens(request.cookies)
    out = []
    for t in tables.made_by(request.remote_addr):
        seat = None
        if t.code in held:
            try:
                seat = t.seat_of(held[t.code])
            except WebError:
                seat = None
        people = [st.name for st in t.seats if st.name and not st.bot]
        out.append({"code": t.code, "game": GAMES.get(t.game, t.game), "people": people,
                    "hand": t.hand_number, "seat": seat,
                    "host": seat is not None and seat == t.host,
                    "host_name": t.seat_name(t.host) if t.host is not None else None})
    return out


def _home(error: str | None = None, form=None, status: int = 200):
    form = form or {}
    body = render_template(
        "lobby/home.html", games=GAMES, blurbs=BLURBS, players=PLAYERS, levels=BOT_LEVELS,
        level_words=LEVEL_WORDS, turn_seconds=TURN_SECONDS,
        fields={g: [f for f in option_fields(g) if f["name"] not in FIRST_SCREEN] for g in GAMES},
        hints={g: next(f for f in option_fields(g) if f["name"] == "hints") for g in GAMES},
        error=error, form=form,
        name=form.get("name") or request.cookies.get(NAME_COOKIE, ""),
        code=(request.args.get("code") or "").strip().upper()[:8], held=held_tables(),
        own=own_tables(), done=_done())
    return body, status


def _done() -> str | None:
    """What the phone just did from its list of tables: "Table K7QF is closed." (the
    close and leave posts come back here with ?closed= or ?left=)."""
    def sent(key: str) -> str | None:
        code = (request.args.get(key) or "").strip().upper()
        return code if 0 < len(code) <= 8 and code.isascii() and code.isalnum() else None
    if sent("closed"):
        return _("Table %(code)s is closed.", code=sent("closed"))
    if sent("left"):
        return _("You left table %(code)s: a bot plays your seat.", code=sent("left"))
    return None


@bp.get("/")
def home():
    return _home()


@bp.get("/join")
def join_code():
    """The "join with a code" form: GET, so it needs no token; it only goes to the page."""
    code = "".join(ch for ch in (request.args.get("code") or "").upper() if ch.isalnum())[:8]
    if not code:
        return _home(_("Type the table's code, the four letters on the host's screen."), status=400)
    tables = tables_of(current_app)
    if not tables.ours(code):
        # Another process's code (--shard): its page, which the proxy sends there, says
        # whether there is such a table.
        return redirect(url_for("table.page", code=code))
    try:
        tables.get(code)
    except WebError as e:       # only NotFound: the code is the one typed
        return _home(_("There is no table %(code)s: check the code and try again.", code=code),
                     status=e.status)
    return redirect(url_for("table.page", code=code))


@bp.post("/create")
def create():
    guard.check()
    form = request.form
    game = form.get("game", "tongits")
    name = form.get("name", "")
    if game not in GAMES:
        return _home(_("Choose Tong-its or Tonk."), form, 400)
    # Without JavaScript both menus are sent, Tonk's first (the other game's is disabled
    # with it): Tong-its reads the last.
    sent = form.getlist("players")
    raw = ((sent[-1] if game == "tongits" and sent else form.get("players")) or "4").strip()
    # Checked before any work: a number out of range never reaches a loop.
    counts = {str(n) for ps in PLAYERS.values() for n in ps}
    players = None if raw not in counts else int(raw)
    if game == "tongits" and players is not None and players not in PLAYERS[game]:
        players = 3             # a form that sends only a Tonk count (or none) gets three
    if players not in PLAYERS[game]:
        return _home(_("Choose how many play: %(game)s is played by %(low)d to %(high)d.",
                       game=GAMES[game], low=PLAYERS[game][0], high=PLAYERS[game][-1]),
                     form, 400)
    bots = {}
    for s in range(1, players):
        level = form.get(f"seat{s}", "person")
        if level in BOT_LEVELS:
            bots[str(s)] = level
    tables = tables_of(current_app)
    try:
        from ..tables import clean_name
        clean_name(name)         # check the name before making a table nobody sits at
        table = tables.create(game, players, {**read_options(game, form), **read_pace(form)}, bots,
                              creator=request.remote_addr)
        seat, token = table.join(name, 0)
    except WebError as e:
        return _home(present.refusal({}, e), form, e.status)
    resp = make_response(redirect(url_for("table.page", code=table.code)))
    set_seat_cookie(resp, table.code, token)
    resp.set_cookie(NAME_COOKIE, name.strip(), max_age=365 * 24 * 3600, samesite="Lax")
    return resp


def set_seat_cookie(resp, code: str, token: str) -> None:
    """The same cookie as POST /api/tables/CODE/seats: HttpOnly, read by the socket too."""
    resp.set_cookie(cookie_name(code), token, max_age=COOKIE_AGE, path="/", httponly=True,
                    samesite="Lax", secure=request.is_secure)


def forget_seat_cookie(resp, code: str) -> None:
    """This browser no longer holds its seat at table `code` (it left)."""
    resp.delete_cookie(cookie_name(code), path="/", httponly=True, samesite="Lax",
                       secure=request.is_secure)


def home_page(error: str, status: int):
    """The home page saying why something was refused (its list of tables under it)."""
    return _home(error, status=status)
