"""Languages: every page in a marked test locale, the Filipino catalog complete, the choice
of language per phone (Accept-Language, the Settings cookie), and the catalog template in
step with the code.
"""
from __future__ import annotations

import datetime
import html
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from babel.dates import format_date
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from flask import render_template_string

from webapp.web import i18n
from webapp.server import tls
from webapp.engine.cards import parse
from webapp.tables import tables_of
from webapp.words import log_lines
from webapp.web.lobby import rules_for

from .i18n_check import POT, ROOT, marks, pseudo_catalog, unmarked
from .test_pages import HX, create, forms, post, sit, token_of
from .test_wilds_page import _deck as wilds_deck

FIL = ROOT / "webapp" / "translations" / "fil" / "LC_MESSAGES" / "messages.po"
NAMES = ("Ana", "Ben", "Cy", "JK")     # JK: the joker's rank, on its face
PLACEHOLDER_PERCENT = r"%\(\w+\)[sd]"
PLACEHOLDER_BRACE = r"\{\w*\}"
RULES_PANEL = ('{% from "_dialogs.html" import help_dialog %}'
               "{{ help_dialog([(game, name)], rules) }}")


def _rules(env, game, options):
    with env.app.test_request_context("/", headers={"Cookie": "baraha-lang=fil"}):
        return render_template_string(RULES_PANEL, game=game, name=game.title(),
                                      rules=rules_for(game, options))


def _https_with_authority(env):
    env.app.config["TLS_CA"] = str(tls.ensure(env.tmp / "tls", lan=[]).ca)
    try:
        page = env.client.get("/help/https", base_url="https://localhost").get_data(as_text=True)
        return page, (tls.fingerprint(env.app.config["TLS_CA"]),)
    finally:
        env.app.config.pop("TLS_CA")


def _https_own_certificate(env):
    env.app.config["TLS_OWN_CERT"] = True
    try:
        return env.client.get("/help/https").get_data(as_text=True)
    finally:
        env.app.config.pop("TLS_OWN_CERT")


def _offline(env, phone: str) -> str:
    """The offline page holds every language: only the marked one (fil) is looked at, shown
    (a Filipino phone) or kept in its <template> (an English phone)."""
    env.client.set_cookie("baraha-lang", phone)
    page = env.client.get("/offline").get_data(as_text=True)
    env.client.set_cookie("baraha-lang", "fil")
    if phone == "en":
        body = re.search(r'<template data-lang="fil".*?</template>', page, re.S).group(0)
        return body
    return re.sub(r'<template data-lang="en".*?</template>', "", page, flags=re.S)


def _seat_taken(env):
    r = env.client.post(f"/t/{env.tongits}/join",
                        data={"csrf_token": token_of(env.client), "name": "Ben", "seat": "0"})
    assert r.status_code == 409
    return r.get_data(as_text=True)


# ---- the table: three phones play a scenario in the marked locale ------------------------

def _scenario(name):
    return json.loads((ROOT / "tests" / "e2e" / "scenarios" / f"{name}.json").read_text())


def _tongits(env, upto=None):
    """tongits-challenge.json on three phones (Ana, the host, in seat 0): actions[:upto]."""
    doc = _scenario("tongits-challenge")
    env.decks[1] = ([parse(c) for c in doc["deal"]["deck"]], doc["dealer"])
    code = _create(env)
    phones = [env.client, sit(env.app, code, "Ben", 1), sit(env.app, code, "Cy", 2)]
    for phone in phones[1:]:
        phone.set_cookie("baraha-lang", "fil")
    table = tables_of(env.app).get(code)
    for a in doc["actions"][:upto]:
        a = dict(a)
        seat = a.pop("seat")
        table.act(seat, table.view(seat)["version"], a)
    return code, phones, table


def _create(env, **fields):
    """A table made by Ana's phone; its code and links (to join, to watch or show it on a big
    screen) are names, the same in every language."""
    code = create(env.client, **fields)
    env.names += [f"http://localhost/t/{code}/watch", f"http://localhost/t/{code}", code]
    return code


def _page(phone, code):
    return phone.get(f"/t/{code}").get_data(as_text=True)


def _partial(phone, code):
    return phone.get(f"/t/{code}/view", headers=HX).get_data(as_text=True)


def _tongits_call(env):
    return [i for i, a in enumerate(_scenario("tongits-challenge")["actions"]) if a["do"] == "call_draw"][0]


def _yours_drawn(env):
    """Ana's turn after drawing (lay-offs, melds, discards offered), with the host panel."""
    code, phones, _ = _tongits(env, 6)
    return _page(phones[0], code)


def _yours_before_draw(env):
    code, phones, _ = _tongits(env, 5)
    return _partial(phones[0], code)


def _someone_else(env):
    code, phones, _ = _tongits(env, 8)
    return _page(phones[0], code) + _partial(phones[2], code)


def _answering(env):
    code, phones, table = _tongits(env, _tongits_call(env) + 1)
    turn = table.view(0)["turn"]
    return "".join(_page(p, code) for p in (phones[turn], phones[(turn + 1) % 3]))


def _challenge_settled(env):
    code, phones, _ = _tongits(env)
    return "".join(_page(p, code) for p in phones)


def _refusals(env):
    """A refusal worded with names (422), a stale tap's toast (409) and a nudge's toast."""
    code, phones, table = _tongits(env, 6)
    v = table.view(0)["version"]
    out = [post(phones[1], code, v, {"do": "draw"}).get_data(as_text=True),
           post(phones[0], code, v, {"do": "discard", "card": "QH"}).get_data(as_text=True)]
    r = post(phones[0], code, v - 1, {"do": "discard", "card": "KD"})
    out.append(json.loads(r.headers["HX-Trigger"])["baraha-toast"])
    r = phones[1].post(f"/t/{code}/nudge", headers={**HX, "X-CSRF-Token": token_of(phones[1])})
    out.append(json.loads(r.headers["HX-Trigger"])["baraha-toast"])
    return "<p>" + "</p><p>".join(out) + "</p>"


def _tonk_wilds(env):
    """Tonk with deuces and the joker wild: a spread with ★ as 6♥, a hit that takes it back."""
    env.decks[1] = (wilds_deck(), 0)
    code = _create(env, game="tonk", players="2", **{"tonk.wilds": "deuces_joker"})
    ben = sit(env.app, code, "Ben", 1)
    ben.set_cookie("baraha-lang", "fil")
    pages = []
    page = _page(ben, code)
    draw = next(f for f in forms(page) if f["action"]["do"] == "draw")
    page = post(ben, code, draw["version"], draw["action"]).get_data(as_text=True)
    pages.append(page)
    spread = next(f for f in forms(page) if f["action"]["do"] == "meld")
    page = post(ben, code, spread["version"], spread["action"]).get_data(as_text=True)
    f = next(f for f in forms(page) if f["action"] == {"do": "discard", "card": "KD"})
    post(ben, code, f["version"], f["action"])
    f = next(f for f in forms(_page(env.client, code)) if f["action"]["do"] == "draw")
    pages.append(post(env.client, code, f["version"], f["action"]).get_data(as_text=True))
    assert "★" in html.unescape(pages[0]) and "6♥" in html.unescape(pages[1])
    return "".join(pages)


def _tonk_caught(env):
    """Tonk: Ben drops with 54 against Ana's 15 and is caught; both phones' results."""
    hands = {1: "KD QS JH 10C 8C".split(), 0: "AC 2D 3H 4S 5C".split()}
    order = [hands[s][i] for i in range(5) for s in (1, 0)]
    rest = [r + s for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]
    env.decks[1] = ([parse(c) for c in order + [c for c in rest if c not in order]], 0)
    code = _create(env, game="tonk", players="2")
    ben = sit(env.app, code, "Ben", 1)
    ben.set_cookie("baraha-lang", "fil")
    table = tables_of(env.app).get(code)
    table.act(1, table.view(1)["version"], {"do": "drop"})
    assert table.view(0)["result"]["end"] == "caught"
    return _page(env.client, code) + _page(ben, code)


def _host_asks(env):
    """The host's button and sheet: Ana lets a bot play Cy's seat, and Cy asks it back."""
    code, phones, table = _tongits(env, 6)
    r = env.client.post(f"/t/{code}/seats/2/bot", data={"level": "normal"},
                        headers={**HX, "X-CSRF-Token": token_of(env.client)})
    assert r.status_code == 200
    r = phones[2].post(f"/t/{code}/seats/2/back", headers={**HX, "X-CSRF-Token": token_of(phones[2])})
    assert r.status_code == 200
    asker = env.app.test_client()           # a new phone asks for Ben's seat: a claim too
    asker.set_cookie("baraha-lang", "fil")
    r = asker.post(f"/t/{code}/seats/1/claim", data={"csrf_token": token_of(asker), "name": "Sam"})
    assert r.status_code == 303
    page = _page(env.client, code)
    assert 'id="host-sheet"' in page and 'data-do="approve"' in page and "data-claim-code" in page
    return page, ["Sam"]


def _waiting(env):
    """Before the deal: the seats, the invite and the host's panel."""
    code = _create(env, players="3")
    return _page(env.client, code)


def _screen(env, upto=None):
    """The watch link in a wide window: the table before it joins, then the table screen's
    page and partial (the last moves, the standing), mid-hand or at the settlement."""
    code, phones, table = _tongits(env, upto)
    tv = env.app.test_client()
    tv.set_cookie("baraha-lang", "fil")
    pages = [tv.get(f"/t/{code}/watch").get_data(as_text=True)]
    assert tv.post(f"/t/{code}/watch/screen", headers={"X-CSRF-Token": token_of(tv)}).status_code == 204
    pages += [tv.get(f"/t/{code}/watch").get_data(as_text=True),
              tv.get(f"/t/{code}/watch/view").get_data(as_text=True), _page(phones[0], code)]
    waiting = _create(env, players="3")             # before the deal: it invites the room
    pages.append(tv.get(f"/t/{waiting}/watch").get_data(as_text=True))
    return "".join(pages)


def _season(env):
    """The family's season after a Tong-its hand, a person left out (its notice), and the home
    page's link to it."""
    _tongits(env)
    env.client.post("/season/out", data={"name": "Cy", "csrf_token": token_of(env.client)})
    pages = [env.client.get(u).get_data(as_text=True) for u in ("/season", "/season?said=out", "/")]
    # The month's name is Babel's calendar's, in the phone's language ("Disyembre 2026").
    month = format_date(datetime.date.today().replace(day=1), "LLLL y", locale="fil")
    return "".join(pages), ("Ana", "Ben", month)


# Every page and panel: what, and how to get its HTML (maybe with names that are the same
# in every language).
PAGES = [
    ("lobby", lambda env: env.client.get("/").get_data(as_text=True)),
    ("lobby, no code typed", lambda env: env.client.get("/join?code=").get_data(as_text=True)),
    ("lobby, unknown code", lambda env: env.client.get("/join?code=ZZZZ").get_data(as_text=True)),
    ("join Tong-its", lambda env: env.client.get(f"/t/{env.tongits}").get_data(as_text=True)),
    ("join Tonk", lambda env: env.client.get(f"/t/{env.tonk}").get_data(as_text=True)),
    ("join, seat just taken", _seat_taken),
    ("join, table full", lambda env: env.client.get(f"/t/{env.full}").get_data(as_text=True)),
    ("no such table", lambda env: env.client.get("/t/ZZZZ").get_data(as_text=True)),
    ("no such address", lambda env: env.client.get("/nowhere").get_data(as_text=True)),
    ("HTTPS help over http", lambda env: env.client.get("/help/https").get_data(as_text=True)),
    ("HTTPS help with the authority", _https_with_authority),
    ("HTTPS help, own certificate", _https_own_certificate),
    ("offline page, shown", lambda env: _offline(env, "fil")),
    ("offline page, kept for later", lambda env: _offline(env, "en")),
    ("Tong-its rules panel", lambda env: _rules(env, "tongits", {"bonus": 2, "sapaw_blocks_draw": "hand"})),
    ("Tonk rules panel", lambda env: _rules(env, "tonk", {"upcard": False, "stock_out": "void"})),
    ("table: waiting for players, host panel", _waiting),
    ("table: your turn, before drawing", _yours_before_draw),
    ("table: your turn after drawing, host panel", _yours_drawn),
    ("table: someone else's turn", _someone_else),
    ("table: a Draw being answered", _answering),
    ("table: the settlement of a challenged Draw", _challenge_settled),
    ("table: refusals and toasts", _refusals),
    ("table: Tonk with wilds", _tonk_wilds),
    ("table: Tonk, a drop caught", _tonk_caught),
    ("table: what waits for the host, in its sheet", _host_asks),
    ("the table screen, mid-hand (and the host's list)", lambda env: _screen(env, 5)),
    ("the table screen, the settlement", _screen),
    ("the family's season", _season),
]


@pytest.fixture
def env(make_app, tmp_path, decks):
    """The app with the marked catalog standing in for Filipino, and a phone that chose it."""
    pseudo_catalog(tmp_path / "pseudo")
    app = make_app(TRANSLATIONS_DIR=str(tmp_path / "pseudo"))
    tables = tables_of(app)
    tongits = tables.create("tongits", 3, {}, {"2": "easy"})
    tongits.join("Ana", 0)
    tonk = tables.create("tonk", 2, {}, {})
    full = tables.create("tonk", 2, {}, {"1": "hard"})
    full.join("Ana", 0)
    client = app.test_client()
    client.set_cookie("baraha-lang", "fil")
    return SimpleNamespace(app=app, client=client, tmp=tmp_path, decks=decks, names=[], tongits=tongits.code,
                           tonk=tonk.code, full=full.code)


@pytest.mark.parametrize("what,render", PAGES, ids=[p[0] for p in PAGES])
def test_every_word_on_the_page_comes_from_the_catalog(env, what, render):
    got = render(env)
    page, names = got if isinstance(got, tuple) else (got, ())
    codes = (env.tongits, env.tonk, env.full, "ZZZZ")
    assert marks(page) > 0, f"{what}: the test locale was not used"
    left = unmarked(page, (*NAMES, *codes, *names, *env.names))
    assert not left, f"{what}: words not translated:\n" + "\n".join(left)


def test_the_check_finds_a_word_left_in_english():
    assert unmarked("<p>⟦Join⟧ <b>now</b></p>") == ["now"]
    assert unmarked('<button aria-label="Close">⟦x⟧</button>') == ["@aria-label: Close"]
    assert unmarked("<p>⟦Bot: ⟦easy⟧⟧ 7♥ A 10, Ana</p>", ("Ana",)) == []
    assert unmarked('<span aria-hidden="true" aria-label="ace">A♣</span>') == []


def test_the_filipino_catalog_is_complete_and_nothing_is_fuzzy():
    with open(FIL, "rb") as f:
        catalog = read_po(f)
    with open(POT, "rb") as f:
        wanted = {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(f) if m.id}
    have = {m.id if isinstance(m.id, str) else tuple(m.id): m for m in catalog if m.id}
    assert not wanted - have.keys(), f"not in the Filipino catalog: {sorted(wanted - have.keys(), key=str)}"
    empty = [k for k, m in have.items()
             if not (all(m.string) if isinstance(m.string, tuple) else m.string)]
    fuzzy = [k for k, m in have.items() if m.fuzzy]
    assert not empty, f"untranslated: {empty}"
    assert not fuzzy, f"fuzzy (check, then drop the flag): {fuzzy}"
    assert not catalog.obsolete, f"obsolete entries: {list(catalog.obsolete)}"
    for k, m in have.items():       # the same placeholders, so a sentence never breaks
        ids = k if isinstance(k, tuple) else (k,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        # %-style (templates, Python) and str.format {name} (webapp/words, python-brace-format)
        style = PLACEHOLDER_BRACE if "python-brace-format" in m.flags else PLACEHOLDER_PERCENT
        want = set(re.findall(style, ids[-1]))
        assert all(set(re.findall(style, s)) == want for s in strings), k


def test_the_template_holds_every_word_in_the_code():
    with open(ROOT / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = {msgid if isinstance(msgid, str) else tuple(msgid)
             for _file, _line, msgid, *_ in extract_from_dir(str(ROOT), method_map, options_map)}
    with open(POT, "rb") as f:
        pot = {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(f) if m.id}
    assert found == pot, ("messages.pot is out of date: run the commands in docs/I18N.md\n"
                          f"new: {sorted(found - pot, key=str)}\ngone: {sorted(pot - found, key=str)}")


# ---- which language a phone gets ------------------------------------------------------------

def lang_of(page: str) -> str:
    return re.search(r'<html lang="([^"]+)"', page).group(1)


@pytest.mark.parametrize("header", ["fil-PH", "tl", "tl-PH,en;q=0.8", "fil", "en-US;q=0.5, fil;q=0.9"])
def test_filipino_from_accept_language(client, header):
    page = client.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
    assert lang_of(page) == "fil"
    assert "Magbukas ng mesa" in page and "Sumali gamit ang code" in page
    assert "Create a table" not in page and "Join with a code" not in page


@pytest.mark.parametrize("header", [None, "en-US", "es-ES,es;q=0.9", "en-PH,fil;q=0.5", "*"])
def test_english_otherwise(client, header):
    headers = {"Accept-Language": header} if header else {}
    page = client.get("/", headers=headers).get_data(as_text=True)
    assert lang_of(page) == "en" and "Create a table" in page and "Magbukas ng mesa" not in page


def test_the_cookie_from_settings_overrides_the_browser(client):
    fil = {"Accept-Language": "fil-PH"}
    r = client.post("/lang", data={"csrf_token": token_of(client), "lang": "en", "next": "/help/https"},
                    headers=fil)
    assert r.status_code == 303 and r.headers["Location"] == "/help/https"
    assert "baraha-lang=en" in r.headers["Set-Cookie"] and "HttpOnly" not in r.headers["Set-Cookie"]
    page = client.get("/", headers=fil).get_data(as_text=True)
    assert lang_of(page) == "en" and "Create a table" in page
    assert 'value="en" lang="en" aria-pressed="true"' in page
    client.post("/lang", data={"csrf_token": token_of(client), "lang": "fil", "next": "/"})
    page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert lang_of(page) == "fil" and "Magbukas ng mesa" in page
    client.post("/lang", data={"csrf_token": token_of(client), "lang": "phone", "next": "/"})
    page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert lang_of(page) == "en" and 'value="phone" aria-pressed="true"' in page


def test_two_phones_at_one_table_read_two_languages(app):
    table = tables_of(app).create("tongits", 3, {}, {})
    ana, ben = app.test_client(), app.test_client()
    ben.set_cookie("baraha-lang", "fil")
    assert "Sit down" in ana.get(f"/t/{table.code}").get_data(as_text=True)
    assert "Umupo" in ben.get(f"/t/{table.code}").get_data(as_text=True)
    r = ben.get(f"/t/{table.code}/view", headers={"HX-Request": "true"})
    assert r.status_code == 401 and "Walang upuan" in r.get_data(as_text=True)
    assert "no seat" in ana.get(f"/t/{table.code}/view").get_data(as_text=True)


def test_the_picker_refuses_other_sites_and_unknown_languages(client):
    token = token_of(client)
    r = client.post("/lang", data={"csrf_token": token, "lang": "en", "next": "//evil.test/x"})
    assert r.headers["Location"] == "/"
    r = client.post("/lang", data={"csrf_token": token, "lang": "en", "next": "https://evil.test/"})
    assert r.headers["Location"] == "/"
    # Browsers drop tabs and line breaks and read "\\" as "/": each of these is "//evil.test".
    for sneaky in ("/\t/evil.test", "/\n/evil.test", "/\r\n/evil.test", "/\\evil.test",
                   "/ /evil.test", "\t//evil.test", "/\u3000/evil.test"):
        r = client.post("/lang", data={"csrf_token": token, "lang": "en", "next": sneaky})
        assert r.headers["Location"] == "/", sneaky
    r = client.post("/lang", data={"csrf_token": token, "lang": "en", "next": "/t/ABCD?x=1#y"})
    assert r.headers["Location"] == "/t/ABCD?x=1#y"
    assert client.post("/lang", data={"csrf_token": token, "lang": "xx"}).status_code == 400
    assert client.post("/lang", data={"lang": "en"}).status_code == 403     # no token


def test_the_api_stays_english(client):
    r = client.get("/api/tables/ZZZZ", headers={"Accept-Language": "fil-PH",
                                               "Cookie": "baraha-lang=fil"})
    assert r.status_code == 404 and r.json["error"].startswith("there is no table")


def test_pages_say_their_words_depend_on_the_language(client):
    vary = client.get("/").headers["Vary"]
    assert "Accept-Language" in vary and "Cookie" in vary


def test_a_fuzzy_entry_is_not_used(tmp_path):
    po = tmp_path / "fil" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr "Content-Type: text/plain; charset=utf-8\\n"\n\n'
                  '#, fuzzy\nmsgid "Join"\nmsgstr "Sumali"\n\nmsgid "Seat"\nmsgstr "Upuan"\n',
                  encoding="utf-8")
    catalogs = i18n.load_catalogs(tmp_path)
    assert catalogs["fil"].gettext("Seat") == "Upuan" and catalogs["fil"].gettext("Join") == "Join"


def test_the_offline_page_carries_both_languages(client):
    page = client.get("/offline", headers={"Accept-Language": "fil"}).get_data(as_text=True)
    assert lang_of(page) == "fil" and "Kumokonekta ulit…" in page
    assert '<template data-lang="en" data-title="Reconnecting… · Baraha">' in page
    assert page.count('id="offline-page"') == 2       # one shown, one inert in its <template>
    assert Path(i18n.TRANSLATIONS).is_dir()


def test_a_table_mid_hand_in_filipino_has_no_english_sentences_and_the_api_stays_english(app, decks):
    doc = _scenario("tongits-challenge")
    decks[1] = ([parse(c) for c in doc["deal"]["deck"]], doc["dealer"])
    fil = {"Accept-Language": "fil-PH"}
    ana = app.test_client()
    r = ana.post("/create", data={"csrf_token": token_of(ana), "name": "Ana", "game": "tongits"}, headers=fil)
    code = r.headers["Location"].rsplit("/", 1)[1]
    sit(app, code, "Ben", 1), sit(app, code, "Cy", 2)
    table = tables_of(app).get(code)
    for a in doc["actions"][:6]:
        a = dict(a)
        seat = a.pop("seat")
        table.act(seat, table.view(seat)["version"], a)
    # As a browser reads it: kept HTML writes characters past ASCII as references.
    page = html.unescape(ana.get(f"/t/{code}", headers=fil).get_data(as_text=True))
    assert lang_of(page) == "fil"
    assert "Tira mo" in page and "Bumunot ka ng 6♥" in page and "Sumapaw si Cy ng 9♣" in page
    assert "siyete ng trebol" in page                         # cards by name, for screen readers
    for english in ("Your turn", "discarded", "laid off", "Take from stock", "Discard pile", "Stock",
                    "Other players", "not opened", "seven of clubs", "Game log", "Your hand"):
        assert english not in page, english
    english_page = html.unescape(ana.get(f"/t/{code}", headers={
        "Accept-Language": "en", "Cookie": "baraha-lang=en"}).get_data(as_text=True))
    assert lang_of(english_page) == "en" and "Your turn" in english_page and "Cy discarded Q♠" in english_page
    assert "Cy discarded QS" in log_lines(table.view(0))    # the API's log: English, cards as texts
