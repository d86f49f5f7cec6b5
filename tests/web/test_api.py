"""Every endpoint of docs/API.md and every error code it lists."""
from __future__ import annotations

import re

import pytest

from webapp.tables import CODE_ALPHABET, tables_of

from .conftest import bearer

VIEW_FIELDS = {"code", "game", "version", "seat", "options", "players", "dealer", "turn",
               "phase", "hand", "melds", "discard_top", "stock", "pot", "legal", "result", "log"}
PLAYER_FIELDS = {"seat", "name", "bot", "connected", "cards", "opened", "chips"}


def full_table(api, game="tongits", players=3, **body):
    code = api.create(game, players, **body)
    tokens = [api.join(code, f"P{s}") for s in range(players - len(body.get("bots", {})))]
    return code, tokens


def turn_token(api, code, tokens):
    """(token, view) of the person whose move it is."""
    for t in tokens:
        v = api.view(code, t)
        if v["legal"]:
            return t, v
    raise AssertionError("nobody may act")


# ---- POST /api/tables ---------------------------------------------------------------

def test_create_answers_code_and_url(make_app):
    client = make_app(HOST_NAMES=["192.168.1.20"]).test_client()
    r = client.post("/api/tables", json={"game": "tongits", "players": 3},
                    base_url="http://192.168.1.20:8000")
    assert r.status_code == 201
    code = r.json["code"]
    assert re.fullmatch(f"[{CODE_ALPHABET}]{{4}}", code)
    assert r.json["url"] == f"http://192.168.1.20:8000/t/{code}"


def test_create_with_options_and_bots(api):
    code = api.create("tonk", 4, options={"stake": 2, "hand_size": 7}, bots={"1": "hard", "3": "easy"})
    view = api.view(code, api.join(code, "Ana"))
    assert view["options"]["stake"] == 2 and view["options"]["hand_size"] == 7
    assert [p["bot"] for p in view["players"]] == [None, "hard", None, "easy"]
    assert view["phase"] == "waiting" and view["hand"] == [] and view["legal"] == []


@pytest.mark.parametrize("body, field", [
    ({"game": "poker", "players": 3}, "game"),
    ({"game": "tongits", "players": 4}, "players"),
    ({"game": "tonk", "players": 7}, "players"),
    ({"game": "tonk"}, "players"),
    ({"game": "tonk", "players": "3"}, "players"),
    ({"game": "tonk", "players": True}, "players"),
    ({"game": "tongits", "players": 3, "options": {"jackpot": -1}}, "options.jackpot"),
    ({"game": "tongits", "players": 3, "options": {"colour": 4}}, "options.colour"),
    ({"game": "tongits", "players": 3, "options": [1]}, "options"),
    ({"game": "tongits", "players": 3, "bots": {"3": "hard"}}, "bots"),
    ({"game": "tongits", "players": 3, "bots": {"1": "genius"}}, "bots.1"),
    ({"game": "tongits", "players": 3, "bots": ["hard"]}, "bots"),
    ({"game": "tongits", "players": 3, "bots": {"0": "easy", "1": "easy", "2": "easy"}}, "bots"),
])
def test_create_refuses_bad_bodies(client, body, field):
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    assert r.json["error"].startswith(field + ":")


@pytest.mark.parametrize("data", ["not json", "[1, 2]", "", "null"])
def test_a_body_that_is_not_a_json_object_is_400(client, data):
    r = client.post("/api/tables", data=data, content_type="application/json")
    assert r.status_code == 400 and "JSON object" in r.json["error"]


def test_tongits_players_default_to_three(client):
    assert client.post("/api/tables", json={"game": "tongits"}).status_code == 201


def test_body_too_large_is_413(client, api):
    r = client.post("/api/tables", json={"game": "tongits", "pad": "x" * 20_000})
    assert r.status_code == 413 and "too large" in r.json["error"]
    code = api.create()
    r = client.post(f"/api/tables/{code}/actions", json={"version": 0, "pad": "x" * 20_000})
    assert r.status_code == 413


# ---- POST /api/tables/CODE/seats ----------------------------------------------------

def test_join_answers_seat_token_and_cookie(client, api):
    code = api.create()
    r = client.post(f"/api/tables/{code}/seats", json={"name": "  Ana  "})
    assert r.status_code == 201
    assert r.json["seat"] == 0 and len(r.json["token"]) >= 32
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith(f"baraha_{code}={r.json['token']};")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    assert api.view(code, r.json["token"])["players"][0]["name"] == "Ana"


def test_join_a_chosen_seat_and_the_next_free_one(api, client):
    code = api.create("tonk", 3)
    r = client.post(f"/api/tables/{code}/seats", json={"name": "Ben", "seat": 2})
    assert r.json["seat"] == 2
    assert client.post(f"/api/tables/{code}/seats", json={"name": "Cy"}).json["seat"] == 0
    r = client.post(f"/api/tables/{code}/seats", json={"name": "Di", "seat": 2})
    assert r.status_code == 409 and r.json["error"] == "seat 2 is taken"


def test_full_table_is_409(api, client):
    code = api.create("tongits", 3, bots={"1": "easy", "2": "easy"})
    api.join(code)
    r = client.post(f"/api/tables/{code}/seats", json={"name": "Late"})
    assert r.status_code == 409 and r.json["error"] == f"table {code} is full"


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": "   "}, {"name": "x" * 25},
                                  {"name": 7}, {"name": "\u200b\u3164\u2800"},
                                  {"name": "\ue000\ue001"}, {"name": "\n\x00\u202e"},
                                  {"name": "Seat 2"}, {"name": "You"}, {"name": "Ana", "seat": 3},
                                  {"name": "Ana", "seat": "1"}, {"name": "Ana", "seat": -1}])
def test_join_refuses_bad_names_and_seats(api, client, body):
    code = api.create()
    r = client.post(f"/api/tables/{code}/seats", json=body)
    assert r.status_code == 400
    assert r.json["error"].split(":")[0] in ("name", "seat")


@pytest.mark.parametrize("typed, shown", [("a\nb", "a b"), ("a\x00", "a"),
                                          ("evil\u202egnp", "evilgnp"), ("  Ana\u200b ", "Ana"),
                                          ("\uff21na", "Ana"), ("Ana\ue000", "Ana")])
def test_join_drops_what_nobody_can_see(api, typed, shown):
    code = api.create()
    assert api.view(code, api.join(code, typed))["players"][0]["name"] == shown


@pytest.mark.parametrize("second", ["Ana", "ANA", "\u0410na", "A\u200bna", "an\u0430"])
def test_join_refuses_a_name_that_looks_like_another_seats(api, client, second):
    code = api.create()
    api.join(code, "Ana")
    r = client.post(f"/api/tables/{code}/seats", json={"name": second})
    assert r.status_code == 400 and "looks the same as \"Ana\"" in r.json["error"]


def test_names_may_be_unicode_and_are_not_interpreted(api):
    code = api.create()
    token = api.join(code, "Lola 👵 <b>&")
    assert api.view(code, token)["players"][0]["name"] == "Lola 👵 <b>&"


def test_codes_are_case_insensitive(api, client):
    code = api.create()
    assert client.post(f"/api/tables/{code.lower()}/seats", json={"name": "Ana"}).status_code == 201


# ---- GET /api/tables/CODE: tokens ---------------------------------------------------

def test_view_has_every_field_of_api_md(api):
    code, tokens = full_table(api)
    view = api.view(code, tokens[1])
    assert VIEW_FIELDS <= view.keys()
    assert view["seat"] == 1 and view["code"] == code and view["game"] == "tongits"
    for p in view["players"]:
        assert PLAYER_FIELDS <= p.keys()
    assert sum(p["cards"] for p in view["players"]) == 37
    assert len(view["hand"]) == view["players"][1]["cards"]
    assert all("seat" not in a for a in view["legal"])


def test_no_token_is_401(api, client):
    code = api.create()
    r = client.get(f"/api/tables/{code}")
    assert r.status_code == 401 and "token" in r.json["error"]


@pytest.mark.parametrize("header", ["Bearer nonsense", "Bearer ", "Basic abc", "token"])
def test_bad_token_is_401(api, client, header):
    code = api.create()
    api.join(code)
    r = client.get(f"/api/tables/{code}", headers={"Authorization": header})
    assert r.status_code == 401


def test_a_token_of_another_table_is_401(api, client):
    a, b = api.create(), api.create()
    token = api.join(a)
    assert client.get(f"/api/tables/{b}", headers=bearer(token)).status_code == 401


def test_the_cookie_works_as_a_token(api, client):
    code = api.create()
    client.post(f"/api/tables/{code}/seats", json={"name": "Ana"})    # sets the cookie
    r = client.get(f"/api/tables/{code}")
    assert r.status_code == 200 and r.json["seat"] == 0


def test_bearer_wins_over_the_cookie(api, client):
    code = api.create()
    client.post(f"/api/tables/{code}/seats", json={"name": "Ana"})
    other = client.post(f"/api/tables/{code}/seats", json={"name": "Ben"}).json["token"]
    client.post(f"/api/tables/{code}/seats", json={"name": "Cy"})     # cookie now seat 2
    assert client.get(f"/api/tables/{code}", headers=bearer(other)).json["seat"] == 1
    assert client.get(f"/api/tables/{code}").json["seat"] == 2


@pytest.mark.parametrize("method, path", [
    ("get", "/api/tables/ZZZZ"), ("post", "/api/tables/ZZZZ/seats"),
    ("post", "/api/tables/ZZZZ/actions"), ("post", "/api/tables/ZZZZ/seats/0/bot"),
    ("post", "/api/tables/ZZZZ/close"), ("get", "/api/tables/no%20such"),
])
def test_unknown_table_is_404(client, method, path):
    r = getattr(client, method)(path, json={})
    assert r.status_code == 404 and "no" in r.json["error"]


def test_unknown_api_path_is_json_404(client):
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.is_json


# ---- POST /api/tables/CODE/actions --------------------------------------------------

def test_an_action_answers_the_new_view(api):
    code, tokens = full_table(api)
    token, view = turn_token(api, code, tokens)
    action = view["legal"][0]
    new = api.act(code, token, view["version"], action)
    assert new["version"] > view["version"]
    assert new["log"] != view["log"]
    assert api.view(code, token) == new


def test_a_stale_version_is_409_with_the_current_view(api):
    code, tokens = full_table(api)
    token, view = turn_token(api, code, tokens)
    body = api.act(code, token, view["version"] - 1, view["legal"][0], status=409)
    assert "moved on" in body["error"]
    assert body["view"] == api.view(code, token)
    assert body["version"] == view["version"] and body["hand"] == view["hand"]


def test_a_future_version_is_409_too(api):
    code, tokens = full_table(api)
    token, view = turn_token(api, code, tokens)
    api.act(code, token, view["version"] + 5, view["legal"][0], status=409)
    assert api.view(code, token)["version"] == view["version"]


def test_the_same_request_twice_is_applied_once(api):
    code, tokens = full_table(api)
    token, view = turn_token(api, code, tokens)
    action = next(a for a in view["legal"] if a["do"] in ("draw", "discard"))
    first = api.act(code, token, view["version"], action)
    again = api.act(code, token, view["version"], action)
    assert again == first
    assert again["log"].count(first["log"][-1]) == first["log"].count(first["log"][-1])


def test_a_repeat_written_differently_is_still_the_same_request(api):
    code, tokens = full_table(api)
    token, view = turn_token(api, code, tokens)
    action = next(a for a in view["legal"] if a["do"] in ("draw", "discard"))
    first = api.act(code, token, view["version"], action)
    written = dict(action, card=action["card"].lower()) if "card" in action else action
    assert api.act(code, token, view["version"], written) == first


def test_a_different_action_at_an_old_version_is_stale(api):
    code, tokens = full_table(api)
    token, view = turn_token(api, code, tokens)
    first = api.act(code, token, view["version"], view["legal"][0])
    other = next((a for a in view["legal"][1:]), {"do": "fold"})
    body = api.act(code, token, view["version"], other, status=409)
    assert body["view"]["version"] == first["version"]


def test_an_illegal_action_is_422_and_says_why(api):
    code, tokens = full_table(api)
    token, view = turn_token(api, code, tokens)
    not_mine = next(c for c in ("AS", "2S", "3S", "4S", "5S") if c not in view["hand"])
    body = api.act(code, token, view["version"], {"do": "discard", "card": not_mine}, status=422)
    assert body["error"] and "Traceback" not in body["error"]
    idle = next(t for t in tokens if t != token)
    body = api.act(code, idle, view["version"], {"do": "draw"}, status=422)
    assert "turn" in body["error"]
    assert api.view(code, token)["version"] == view["version"]


def test_acting_for_another_seat_is_refused(api):
    code, tokens = full_table(api)
    token, view = turn_token(api, code, tokens)
    other = (view["seat"] + 1) % 3
    body = api.act(code, token, view["version"], {"seat": other, "do": "draw"}, status=422)
    assert f"seat {other}" in body["error"]


def test_acting_before_the_deal_is_422(api):
    code = api.create()
    token = api.join(code)
    body = api.act(code, token, 1, {"do": "draw"}, status=422)
    assert "not been dealt" in body["error"]


@pytest.mark.parametrize("body, field", [
    ({"action": {"do": "draw"}}, "version"),
    ({"version": "3", "action": {"do": "draw"}}, "version"),
    ({"version": True, "action": {"do": "draw"}}, "version"),
    ({"version": 3}, "action"),
    ({"version": 3, "action": "draw"}, "action"),
    ({"version": 3, "action": {"do": "dance"}}, "action.do"),
    ({"version": 3, "action": {}}, "action.do"),
    ({"version": 3, "action": {"do": "discard"}}, "action.card"),
    ({"version": 3, "action": {"do": "discard", "card": "1Z"}}, "action.card"),
    ({"version": 3, "action": {"do": "meld", "cards": "AS"}}, "action.cards"),
    ({"version": 3, "action": {"do": "layoff", "card": "AS", "onto": {"seat": 9, "meld": 0}}},
     "action.onto.seat"),
    ({"version": 3, "action": {"do": "layoff", "card": "AS", "onto": {"seat": 0}}},
     "action.onto.meld"),
])
def test_malformed_actions_are_400_naming_the_field(api, client, body, field):
    code, tokens = full_table(api)
    r = client.post(f"/api/tables/{code}/actions", headers=bearer(tokens[0]), json=body)
    assert r.status_code == 400
    assert r.json["error"].startswith(field + ":"), r.json


def test_actions_need_a_token(api, app):
    code, _ = full_table(api)
    r = app.test_client().post(f"/api/tables/{code}/actions", json={"version": 3, "action": {"do": "draw"}})
    assert r.status_code == 401


def test_a_post_from_another_origin_is_refused(api, client):
    code, tokens = full_table(api)
    r = client.post(f"/api/tables/{code}/actions", headers={"Origin": "http://evil.test"},
                    json={"version": 3, "action": {"do": "draw"}})
    assert r.status_code == 403
    r = client.post("/api/tables", json={"game": "tongits"}, headers={"Origin": "http://localhost"})
    assert r.status_code == 201


# ---- whole hands, the ledger, next ------------------------------------------------

def play_until_over(api, code, tokens, rng, limit=2000):
    for _ in range(limit):
        token, view = turn_token(api, code, tokens)
        if view["phase"] == "over":
            return view
        api.act(code, token, view["version"], rng.choice(view["legal"]))
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("game, players, bots", [("tongits", 3, {}), ("tonk", 2, {}),
                                                 ("tonk", 4, {"1": "easy", "2": "hard"})])
def test_next_hand_is_dealt_when_every_person_asks(api, game, players, bots):
    import random
    rng = random.Random(7)
    code, tokens = full_table(api, game, players, bots=bots)
    over = play_until_over(api, code, tokens, rng)
    assert over["result"] is not None and over["legal"] == [{"do": "next"}]
    assert sum(p["chips"] for p in over["players"]) == -over["pot"]
    assert [p["chips"] for p in over["players"]] == over["result"]["net"]
    v = over["version"]
    for i, token in enumerate(tokens):
        view = api.act(code, token, api.view(code, token)["version"], {"do": "next"})
        if i < len(tokens) - 1:
            assert view["phase"] == "over" and view["legal"] == []
            assert view["players"][view["seat"]]["ready"] is True
            again = api.act(code, token, view["version"], {"do": "next"}, status=422)
            assert "already" in again["error"]
    view = api.view(code, tokens[0])
    assert view["hand_number"] == 2 and view["version"] > v
    assert view["log"] != over["log"]


def test_next_during_a_hand_is_422(api):
    code, tokens = full_table(api)
    token, view = turn_token(api, code, tokens)
    assert "still" in api.act(code, token, view["version"], {"do": "next"}, status=422)["error"]


# ---- the host: bots and closing -----------------------------------------------------

def test_host_turns_a_seat_into_a_bot_and_back(api, client):
    code, tokens = full_table(api)
    r = client.post(f"/api/tables/{code}/seats/1/bot", headers=bearer(tokens[1]),
                    json={"level": "easy"})
    assert r.status_code == 403 and "host" in r.json["error"]
    r = client.post(f"/api/tables/{code}/seats/1/bot", headers=bearer(tokens[0]),
                    json={"level": "easy"})
    assert r.status_code == 200 and r.json["players"][1]["bot"] == "easy"
    view = api.view(code, tokens[1])
    assert view["legal"] == [] and view["players"][1]["name"] == "P1"
    if view["turn"] == 1:
        raise AssertionError("with no bot delay the bot plays at once")
    r = client.post(f"/api/tables/{code}/seats/1/bot", headers=bearer(tokens[0]),
                    json={"level": None})
    assert r.status_code == 200 and r.json["players"][1]["bot"] is None
    assert api.view(code, tokens[1])["players"][1]["name"] == "P1"


@pytest.mark.parametrize("body", [{}, {"level": "genius"}, {"level": 3}])
def test_set_bot_refuses_bad_levels(api, client, body):
    code, tokens = full_table(api)
    r = client.post(f"/api/tables/{code}/seats/1/bot", headers=bearer(tokens[0]), json=body)
    assert r.status_code == 400 and r.json["error"].startswith("level")


def test_set_bot_on_a_seat_that_is_not_there_is_400(api, client):
    code, tokens = full_table(api)
    r = client.post(f"/api/tables/{code}/seats/5/bot", headers=bearer(tokens[0]),
                    json={"level": "easy"})
    assert r.status_code == 400


def test_an_empty_seat_given_a_bot_fills_the_table(api, client):
    code = api.create()
    host = api.join(code)
    api.join(code, "Ben")
    for_seat_2 = client.post(f"/api/tables/{code}/seats/2/bot", headers=bearer(host),
                             json={"level": "normal"})
    assert for_seat_2.status_code == 200
    assert api.view(code, host)["hand_number"] == 1


def test_a_closed_table_is_410(api, client):
    code, tokens = full_table(api)
    assert client.post(f"/api/tables/{code}/close", headers=bearer(tokens[2])).status_code == 403
    r = client.post(f"/api/tables/{code}/close", headers=bearer(tokens[0]))
    assert r.status_code == 200 and r.json["closed"] is True and r.json["legal"] == []
    view = api.view(code, tokens[1])
    assert view["closed"] is True
    body = api.act(code, tokens[1], view["version"], {"do": "draw"}, status=410)
    assert "closed" in body["error"]
    r = client.post(f"/api/tables/{code}/seats", json={"name": "Late"})
    assert r.status_code == 410
    assert client.post(f"/api/tables/{code}/close", headers=bearer(tokens[0])).status_code == 410


# ---- 429 ----------------------------------------------------------------------------

def test_too_many_requests_is_429(make_app):
    client = make_app(RATE_LIMIT=(1, 3)).test_client()
    codes = [client.post("/api/tables", json={"game": "tongits"}).status_code for _ in range(5)]
    assert codes[:3] == [201, 201, 201] and codes[-1] == 429
    r = client.get("/api/tables/ZZZZ")
    assert r.status_code == 429 and "too many" in r.json["error"]
    assert r.headers["Retry-After"] == "1"


def test_other_clients_are_not_limited(make_app):
    client = make_app(RATE_LIMIT=(1, 2)).test_client()
    for _ in range(3):
        client.post("/api/tables", json={"game": "tongits"})
    r = client.post("/api/tables", json={"game": "tongits"},
                    environ_base={"REMOTE_ADDR": "192.168.1.30"})
    assert r.status_code == 201


def test_too_many_tables_is_429(make_app):
    client = make_app(MAX_TABLES=2).test_client()
    codes = []
    for _ in range(3):      # each with a person at it (an empty one would give way)
        r = client.post("/api/tables", json={"game": "tongits"})
        codes.append(r.status_code)
        if r.status_code == 201:
            client.post(f"/api/tables/{r.json['code']}/seats", json={"name": "Ana"})
    assert codes == [201, 201, 429]


# ---- never a 500 --------------------------------------------------------------------

@pytest.mark.parametrize("body", [{"name": "\ud800"}, {"name": ["a"]}, {"name": {"x": 1}},
                                  {"name": None, "seat": None}, {"name": "A", "seat": 1.5}])
def test_odd_values_are_400_not_500(api, client, body):
    code = api.create()
    r = client.post(f"/api/tables/{code}/seats", json=body)
    assert r.status_code == 400


def test_tables_registry_is_on_the_app(app):
    assert tables_of(app).all() == []
