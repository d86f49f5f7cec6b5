"""The family's season, after a few hands at two tables played through the JSON API: each
person by name as the table compares names ("Lola" at one table and "lola" at the other are
one), their hands, wins, chips, Tongits, Draws won and best streak, the bots apart; on the
page in English and Filipino and in GET /api/season; a person left out and put back; and
the same numbers after a restart (read from the journal again)."""
from __future__ import annotations

import html
import json
import random
import re
import sqlite3
import time
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator

from webapp.engine.cards import parse

from .conftest import bearer
from .test_pages import token_of

EXAMPLES = Path(__file__).resolve().parents[1] / "public" / "examples"
OPENAPI = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"


def _doc(name):
    return json.loads((EXAMPLES / f"{name}.json").read_text())


class Table:
    """A table played through the JSON API; bots play by themselves."""

    def __init__(self, client, game, names, bots=None):
        r = client.post("/api/tables", json={"game": game, "players": len(names),
                                             "bots": bots or {}})
        assert r.status_code == 201, r.json
        self.client, self.code, self.game = client, r.json["code"], game
        self.tokens = {}
        for seat, name in enumerate(names):
            if name is not None:
                r = client.post(f"/api/tables/{self.code}/seats", json={"name": name, "seat": seat})
                assert r.status_code == 201, r.json
                self.tokens[seat] = r.json["token"]
        self.names, self.results = names, []

    def view(self, seat):
        return self.client.get(f"/api/tables/{self.code}", headers=bearer(self.tokens[seat])).json

    def act(self, seat, action):
        r = self.client.post(f"/api/tables/{self.code}/actions", headers=bearer(self.tokens[seat]),
                             json={"version": self.view(seat)["version"], "action": action})
        assert r.status_code == 200, r.json
        return r.json

    def play(self, actions=None, rng=None, then_next=True):
        """The hand in play: `actions` (a scenario's), or random legal moves; then Next."""
        for a in actions or ():
            a = dict(a)
            self.act(a.pop("seat"), a)
        for _ in range(3000):
            v = self.view(next(iter(self.tokens)))
            if v["result"] is not None:
                break
            seat = next((s for s in self.tokens if self.view(s)["legal"]), None)
            assert seat is not None, "no person may move and the hand is not over"
            moves = [a for a in self.view(seat)["legal"] if a["do"] not in ("next", "close", "rematch")]
            self.act(seat, rng.choice(moves))
        self._record(v)
        for s in self.tokens if then_next else ():
            self.act(s, {"do": "next"})

    def _record(self, v):
        r = v["result"]
        self.results.append((self.game, r["end"], tuple(r["winners"]), tuple(r["net"])))

    def settled(self, clock):
        """The hand dealt after the last Next may have ended at once (Tonk on the deal)."""
        v = self.view(next(iter(self.tokens)))
        if v["result"] is not None and v["hand_number"] > len(self.results):
            self._record(v)
            self.ended.append(next(clock))


def expected(tables) -> tuple[dict, dict]:
    """Each person's numbers (by lower-cased name), and each bot level's, from the API's
    results in the order the hands ended."""
    people, bots = {}, {}
    order = sorted(((i, t, k) for t in tables for k, _ in enumerate(t.results) for i in [t.ended[k]]),
                   key=lambda x: x[0])
    for _, t, k in order:
        game, end, winners, net = t.results[k]
        for seat, name in enumerate(t.names):
            won = seat in winners
            if name is None:
                b = bots.setdefault(t.bots[seat], {"hands": 0, "wins": 0, "chips": 0})
                b["hands"] += 1
                b["wins"] += won
                b["chips"] += net[seat]
                continue
            e = people.setdefault(name.lower(), {"hands": 0, "wins": 0, "chips": 0, "tongits": 0,
                                                 "draws_won": 0, "best_streak": 0, "run": 0})
            e["hands"] += 1
            e["chips"] += net[seat]
            if won:
                e["wins"] += 1
                e["tongits"] += game == "tongits" and end == "tongit"
                e["draws_won"] += game == "tongits" and end in ("draw", "challenge")
                e["run"] += 1
                e["best_streak"] = max(e["best_streak"], e["run"])
            elif winners:
                e["run"] = 0
    for e in people.values():
        del e["run"]
    return people, bots


def _stats(page: str, name: str) -> dict:
    card = re.search(rf'<li class="person" data-name="{re.escape(name)}">.*?</li>', page, re.S).group(0)
    return {k: int(v) for k, v in re.findall(r'data-stat="(\w+)"><dt>[^<]*</dt><dd[^>]*>([+-]?\d+)</dd>', card)}


def test_the_season_counts_each_person_across_tables_and_the_bots_apart(make_app, app, client, decks):
    tongit, draw = _doc("tongits-tongit"), _doc("tongits-draw")
    decks[1] = ([parse(c) for c in tongit["deal"]["deck"]], tongit["dealer"])
    decks[2] = ([parse(c) for c in draw["deal"]["deck"]], draw["dealer"])
    rng = random.Random(5)
    a = Table(client, "tongits", ["Lola", "Ben", "Cy"])
    b = Table(client, "tonk", ["lola", "Dan", None], bots={"2": "hard"})
    a.bots, b.bots = {}, {2: "hard"}
    a.ended, b.ended = [], []
    clock = iter(range(1000))
    a.play(tongit["actions"]); a.ended.append(next(clock))         # Cy: a Tongit
    b.play(rng=rng); b.ended.append(next(clock))
    a.play(draw["actions"]); a.ended.append(next(clock))           # Ben: a Draw won
    b.play(rng=rng); b.ended.append(next(clock))
    a.play(rng=rng); a.ended.append(next(clock))
    b.play(rng=rng); b.ended.append(next(clock))
    a.settled(clock), b.settled(clock)
    assert a.results[0][1:3] == ("tongit", (2,)) and a.results[1][1:3] == ("draw", (1,))
    people, bots = expected([a, b])

    got = client.get("/api/season").json
    spec = yaml.safe_load(OPENAPI.read_text())
    Draft202012Validator({"$ref": "#/components/schemas/Season",
                          "components": spec["components"]}).validate(got)
    assert got["left_out"] == 0 and got["kept_days"] == 30 and len(got["months"]) == 1
    month = got["months"][0]
    assert month["month"] == time.strftime("%Y-%m")
    assert {p["name"].lower(): {k: v for k, v in p.items() if k != "name"} for p in month["people"]} == people
    assert {p["name"] for p in month["people"]} == {"lola", "Ben", "Cy", "Dan"}   # the name used last
    assert {x["level"]: {k: v for k, v in x.items() if k != "level"} for x in month["bots"]} == bots
    assert people["lola"]["hands"] >= 6 and bots["hard"]["hands"] >= 3
    assert people["cy"]["tongits"] == 1 and people["ben"]["draws_won"] >= 1
    ranked = [p["name"] for p in month["people"]]
    assert ranked == sorted(ranked, key=lambda n: (-people[n.lower()]["wins"], -people[n.lower()]["chips"], n.lower()))

    # The page, in both languages: the same numbers, the month named, linked from home.
    assert 'href="/season"' in client.get("/").get_data(as_text=True)
    page = html.unescape(client.get("/season").get_data(as_text=True))
    assert time.strftime("%B %Y") in page and "The bots, apart" in page and "bot · hard" in page
    for p in month["people"]:
        assert _stats(page, p["name"]) == people[p["name"].lower()], p["name"]
    client.set_cookie("baraha-lang", "fil")
    fil = html.unescape(client.get("/season").get_data(as_text=True))
    assert "Ang season ng pamilya" in fil and "Sunod-sunod na panalo" in fil
    assert _stats(fil, "lola") == people["lola"]
    client.set_cookie("baraha-lang", "en")

    # Ben leaves the season (from his row), and is put back by his name typed.
    csrf = token_of(client)
    assert client.post("/season/out", data={"name": "Ben"}).status_code == 403       # no token
    r = client.post("/season/out", data={"name": "Ben", "csrf_token": csrf})
    assert r.status_code == 303
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert 'data-name="Ben"' not in page and "1 person is left out" in page
    assert "Ben" not in json.dumps(client.get("/api/season").json)
    bad = client.post("/season/back", data={"name": " ", "csrf_token": csrf})
    assert bad.status_code == 400 and "type a name people can see" in bad.get_data(as_text=True)
    assert client.post("/season/back", data={"name": "BEN", "csrf_token": csrf}).status_code == 303
    assert "Ben" in [p["name"] for p in client.get("/api/season").json["months"][0]["people"]]

    # A restart reads the same season from the journal.
    client.post("/season/out", data={"name": "Dan", "csrf_token": csrf})
    again = make_app().test_client().get("/api/season").json
    assert again["left_out"] == 1 and [p["name"] for p in again["months"][0]["people"]] == \
        [p["name"] for p in month["people"] if p["name"] != "Dan"]


def test_a_seat_a_bot_played_from_the_deal_counts_for_the_bot(app, client):
    """After the first hand the host gives Dan's seat to a bot: the second hand is the bot's,
    not Dan's."""
    t = Table(client, "tonk", ["Ana", "Dan"])
    rng = random.Random(1)
    t.play(rng=rng, then_next=False)
    client.set_cookie(f"baraha_{t.code}", t.tokens[0])          # Ana's phone: the host's
    r = client.post(f"/t/{t.code}/seats/1/bot", data={"level": "easy", "csrf_token": token_of(client)})
    assert r.status_code == 303, r.status_code
    del t.tokens[1]                                             # Dan's phone leaves it to the bot
    t.act(0, {"do": "next"})
    assert t.view(0)["hand_number"] == 2
    t.play(rng=rng, then_next=False)
    month = client.get("/api/season").json["months"][0]
    assert {p["name"]: p["hands"] for p in month["people"]} == {"Ana": 2, "Dan": 1}
    assert [(b["level"], b["hands"]) for b in month["bots"]] == [("easy", 1)]


def test_a_damaged_row_leaves_its_hand_out_of_the_season_and_the_page_works(app, client):
    """A row the file cannot read (a damaged deck, a table's bots that are not JSON): the
    season counts the hands it can replay, logs one line, and the page still answers."""
    t = Table(client, "tonk", ["Ana", "Ben"])
    rng = random.Random(2)
    t.play(rng=rng)
    t.play(rng=rng, then_next=False)
    with sqlite3.connect(app.config["DATABASE"]) as db:
        db.execute("UPDATE hands SET deck = 'not json' WHERE code = ? AND number = 1", (t.code,))
        db.execute("UPDATE tables SET bots = 'nor this' WHERE code = ?", (t.code,))
    got = client.get("/api/season")
    assert got.status_code == 200
    assert {p["name"]: p["hands"] for p in got.json["months"][0]["people"]} == {"Ana": 1, "Ben": 1}
    assert client.get("/season").status_code == 200
