"""Odd input answers a clear error, never a 500: digits that Python reads as digits but are
not ASCII ("²", "١٢"), and JSON nested thousands (or just dozens) of levels deep, on the
pages, the lessons and the API. The server's log must stay clean (tests/server_log.py)."""
from __future__ import annotations

import json

import pytest

from .conftest import Api, bearer
from .test_pages import HX, create, token_of

DEEP = "[" * 2500 + "]" * 2500
DEEPISH = {"do": "discard", "card": json.loads("[" * 40 + "]" * 40)}


@pytest.mark.parametrize("step", ["²", "١٢", "³³", "-1", "99999999", " 7 ", ""])
def test_a_lesson_step_in_odd_digits_shows_a_step(client, step):
    r = client.get("/learn/tonk", query_string={"step": step})
    assert r.status_code == 200 and 'id="lesson-say"' in r.get_data(as_text=True)


def test_a_lesson_move_nested_thousands_deep_is_refused(client):
    for action in (DEEP, json.dumps(DEEPISH)):
        r = client.post("/learn/tonk?step=0", data={"csrf_token": token_of(client),
                                                      "action": action}, headers=HX)
        assert r.status_code == 400 and "nested too deeply" in r.get_data(as_text=True)


@pytest.mark.parametrize("seconds", ["²", "١٥", "1e3", "15.0"])
def test_the_timer_field_in_odd_digits_is_refused_by_name(client, seconds):
    r = client.post("/create", data={"csrf_token": token_of(client), "name": "Ana",
                                     "game": "tonk", "pace.turn_seconds": seconds})
    assert r.status_code == 400 and "turn_seconds" in r.get_data(as_text=True)


def test_a_house_rule_in_odd_digits_is_refused_by_name(client):
    r = client.post("/create", data={"csrf_token": token_of(client), "name": "Ana",
                                     "game": "tongits", "tongits.jackpot": "²"})
    assert r.status_code == 400 and "jackpot" in r.get_data(as_text=True)


def test_a_seat_in_odd_digits_is_just_no_choice(app, client):
    code = create(client)
    other = app.test_client()
    r = other.post(f"/t/{code}/join", data={"csrf_token": token_of(other), "name": "Ben",
                                             "seat": "١"})
    assert r.status_code == 302


def test_the_api_refuses_deep_bodies_by_name(app, client):
    api = Api(client)
    for body in (DEEP, json.dumps({"game": "tonk", "options": {"jackpot": DEEPISH}})):
        r = client.post("/api/tables", data=body, content_type="application/json")
        assert r.status_code == 400 and "nested too deeply" in r.json["error"]
    code = api.create("tonk", 2)
    token = api.join(code)
    api.join(code, "Ben")
    version = api.view(code, token)["version"]
    r = client.post(f"/api/tables/{code}/actions", headers=bearer(token),
                    json={"version": version, "action": DEEPISH})
    assert r.status_code == 400 and "nested too deeply" in r.json["error"]


def test_a_page_move_nested_deep_or_with_odd_digits_is_refused(app, client):
    code = create(client, game="tonk")
    other = app.test_client()
    other.post(f"/t/{code}/join", data={"csrf_token": token_of(other), "name": "Ben"})
    version = client.get(f"/api/tables/{code}").json["version"]
    for version_sent, action in ((str(version), DEEP), (str(version), json.dumps(DEEPISH)),
                                 ("١", '{"do": "draw"}'), ("²", '{"do": "draw"}')):
        r = client.post(f"/t/{code}/act", headers={**HX, "X-CSRF-Token": token_of(client)},
                        data={"version": version_sent, "action": action})
        assert r.status_code == 400, (version_sent, action[:20])
