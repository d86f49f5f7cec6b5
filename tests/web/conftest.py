"""The app with a temporary database, clients, and small helpers that speak the JSON API."""
from __future__ import annotations

import re

import pytest

from webapp import create_app
from webapp.realtime import socketio_of
from webapp.tables import tables_of

CARD = re.compile(r"^(10|[2-9AJQK])[CDHS]$")


@pytest.fixture
def decks():
    """Hand number -> a deck (52 ints, top first), or (deck, dealer). Unlisted: shuffled."""
    return {}


@pytest.fixture
def make_app(tmp_path, decks):
    """create_app on this test's database; call again for a restarted server."""
    made = []

    def make(**config):
        cfg = {"DATABASE": str(tmp_path / "baraha.sqlite3"), "TESTING": True, "BOT_DELAY": 0,
               "RATE_LIMIT": None, "TABLES_PER_CLIENT": None,
               "DECK_SOURCE": lambda code, number: decks.get(number)}
        cfg.update(config)
        app = create_app(cfg)
        made.append(app)
        return app

    yield make
    for app in made:
        tables_of(app).shutdown()


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def socket_client(app):
    """socket_client(auth=..., flask_test_client=...) -> a connected (or refused) test client."""
    opened = []

    def connect(**kwargs):
        sc = socketio_of(app).test_client(app, **kwargs)
        opened.append(sc)
        return sc

    yield connect
    for sc in opened:
        if sc.is_connected():
            sc.disconnect()


class Api:
    """The JSON API as a test calls it."""

    def __init__(self, client):
        self.client = client

    def create(self, game="tongits", players=3, **body):
        r = self.client.post("/api/tables", json={"game": game, "players": players, **body})
        assert r.status_code == 201, r.json
        return r.json["code"]

    def join(self, code, name="Ana", **body):
        r = self.client.post(f"/api/tables/{code}/seats", json={"name": name, **body})
        assert r.status_code == 201, r.json
        return r.json["token"]

    def view(self, code, token, status=200):
        r = self.client.get(f"/api/tables/{code}", headers=bearer(token))
        assert r.status_code == status, r.json
        return r.json

    def act(self, code, token, version, action, status=200):
        r = self.client.post(f"/api/tables/{code}/actions", headers=bearer(token),
                             json={"version": version, "action": action})
        assert r.status_code == status, r.json
        return r.json


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def api(client):
    return Api(client)


def card_texts(obj, skip=()):
    """Every card named anywhere in a JSON value, also inside log lines."""
    found = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k not in skip:
                found |= card_texts(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= card_texts(v)
    elif isinstance(obj, str):
        found |= {w for w in re.split(r"[^0-9A-Za-z]+", obj) if CARD.match(w)}
    return found


@pytest.fixture(autouse=True)
def _server_log_checked(server_log):
    """Each test here fails when a server logged an error or a traceback (tests/server_log.py)."""
    yield
