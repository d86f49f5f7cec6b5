"""Whatever JSON arrives, the answer is a plain-words error or a success, never a 500."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import Api, bearer

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.floats(allow_nan=False)
    | st.sampled_from(["tongits", "tonk", "AS", "10H", "7h", "draw", "discard", "meld", "take",
                       "layoff", "next", "easy", "", "\u0000", "\ud800"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["game", "players", "options", "bots", "name", "seat",
                                       "version", "action", "do", "card", "cards", "with",
                                       "onto", "meld", "face_down", "level", "jackpot", "1"]),
                      inner, max_size=5),
    max_leaves=12)

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(body=json_values)
def test_any_body_anywhere_is_never_a_500(app, body):
    client = app.test_client()
    api = Api(client)
    code = api.create("tonk", 2)
    token = api.join(code)
    auth = bearer(token)
    for path in ("/api/tables", f"/api/tables/{code}/seats", f"/api/tables/{code}/actions",
                 f"/api/tables/{code}/seats/1/bot"):
        r = client.post(path, json=body, headers=auth)
        assert r.status_code < 500, (path, body, r.json)
        assert r.is_json and (r.status_code < 400) == ("error" not in r.json)


@SETTINGS
@given(action=json_values, version=json_values)
def test_any_action_on_a_dealt_table_is_never_a_500(app, action, version):
    client = app.test_client()
    api = Api(client)
    code = api.create("tongits", bots={"1": "easy", "2": "easy"})
    token = api.join(code)
    for v in (version, api.view(code, token)["version"]):
        r = client.post(f"/api/tables/{code}/actions", json={"version": v, "action": action},
                        headers=bearer(token))
        assert r.status_code in (200, 400, 409, 422), (action, r.json)
