"""Socket.IO: refused without a seat token; a table's room gets `changed` {version} only."""
from __future__ import annotations


def changed(sc):
    return [m for m in sc.get_received() if m["name"] == "changed"]


def test_connecting_without_a_token_is_refused(socket_client):
    assert not socket_client().is_connected()
    assert not socket_client(auth={"token": "not a token"}).is_connected()
    assert not socket_client(auth={"code": "ABCD"}).is_connected()
    assert not socket_client(auth="just text").is_connected()


def test_a_seat_receives_changed_with_the_version_only(api, socket_client):
    code = api.create("tongits")
    tokens = [api.join(code, n) for n in ("Ana", "Ben")]
    sc = socket_client(auth={"token": tokens[0]})
    assert sc.is_connected()
    sc.get_received()
    tokens.append(api.join(code, "Cy"))     # the last seat: the first hand is dealt
    msgs = changed(sc)
    assert msgs and all(m["args"] == [{"version": m["args"][0]["version"]}] for m in msgs)
    assert msgs[-1]["args"][0]["version"] == api.view(code, tokens[0])["version"]
    for t in tokens:
        view = api.view(code, t)
        if view["legal"]:
            new = api.act(code, t, view["version"], view["legal"][0])
            break
    assert changed(sc)[-1]["args"] == [{"version": new["version"]}]


def test_the_seat_cookie_works_too(app, api, socket_client):
    browser = app.test_client()
    code = api.create("tongits")
    browser.post(f"/api/tables/{code}/seats", json={"name": "Ana"})
    sc = socket_client(flask_test_client=browser)
    assert sc.is_connected()
    sc2 = socket_client(flask_test_client=browser, auth={"code": code.lower()})
    assert sc2.is_connected()
    other = socket_client(flask_test_client=browser, auth={"code": "ZZZZ"})
    assert not other.is_connected()


def test_other_tables_hear_nothing(api, socket_client):
    a, b = api.create("tonk", 2), api.create("tonk", 2)
    ta = [api.join(a, "Ana"), api.join(a, "Ben")]
    sb = socket_client(auth={"token": api.join(b, "Cy")})
    sb.get_received()
    view = api.view(a, ta[0])
    mover = ta[0] if view["legal"] else ta[1]
    view = api.view(a, mover)
    api.act(a, mover, view["version"], view["legal"][0])
    assert changed(sb) == []


def test_connected_shows_in_the_view(api, socket_client):
    code = api.create("tongits")
    ana, ben = api.join(code, "Ana"), api.join(code, "Ben")
    assert api.view(code, ben)["players"][0]["connected"] is False
    watcher = socket_client(auth={"token": ben})
    watcher.get_received()
    sc = socket_client(auth={"token": ana})
    assert api.view(code, ben)["players"][0]["connected"] is True
    # Nothing a page shows changed (away comes a minute later): no phone fetches again.
    assert changed(watcher) == [], "a socket's coming is not a change to show"
    sc.disconnect()
    assert api.view(code, ben)["players"][0]["connected"] is False


def test_bots_and_everything_emit_only_to_rooms():
    import pathlib
    import re
    for path in pathlib.Path(__file__).parents[2].joinpath("webapp").rglob("*.py"):
        for line in path.read_text().splitlines():
            if re.search(r"\bemit\(", line) and not line.strip().startswith("#"):
                assert "to=" in line, f"{path}: {line.strip()}"
