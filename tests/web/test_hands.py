"""The evening's hands (API.md "The evening"): every finished hand's file replays to its
result with `baraha replay`, its deck hashes with its salt to the commitment every seat was
shown while the hand was dealt, and the files are for that table's seats only, after the
hand. Also across a restart, with house rules, and with Tonk's reshuffled stock."""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from webapp.__main__ import main
from webapp.engine.cards import parse, text

from .conftest import bearer

SPEC = yaml.safe_load((Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml").read_text())


def schema(name: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}",
                                 "components": SPEC["components"]})


def sha(s: str) -> str:
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def play_hand(api, code, tokens, rng, choose=None):
    """Play the hand in progress to its end with random legal moves; return every view
    seen, by seat."""
    seen = {s: [] for s in range(len(tokens))}
    for _ in range(3000):
        views = [api.view(code, t) for t in tokens]
        for s, v in enumerate(views):
            seen[s].append(v)
        if views[0]["result"] is not None:
            return seen
        for s, (t, v) in enumerate(zip(tokens, views)):
            moves = [a for a in v["legal"] if a["do"] not in ("next", "close")]
            if moves:
                action = choose(v, moves) if choose else rng.choice(moves)
                api.act(code, t, v["version"], action)
                break
    raise AssertionError("the hand did not end")


def next_hand(api, code, tokens):
    for t in tokens:
        v = api.view(code, t)
        if {"do": "next"} in v["legal"]:
            api.act(code, t, v["version"], {"do": "next"})


def replayed(tmp_path, capsys, doc) -> str:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    return capsys.readouterr().out.strip()


def check_file(tmp_path, capsys, doc, shown_commitment):
    schema("HandFile").validate(doc)
    # The file replays to its result, byte for byte.
    assert replayed(tmp_path, capsys, doc) == json.dumps(doc["result"])
    assert doc["result"]["status"] == "over"
    deck = doc["deal"]["deck"]
    assert len(deck) == len(set(deck)) >= 52
    fair = doc["fairness"]
    assert len(fair["salt"]) == 64 and int(fair["salt"], 16) >= 0 and fair["salt"].islower()
    assert fair["commitment"] == sha(fair["salt"] + ":" + " ".join(deck)) == shown_commitment
    stocks = [a["stock"] for a in doc["actions"] if a.get("stock")]
    assert len(stocks) == len(fair["reshuffles"])
    for stock, r in zip(stocks, fair["reshuffles"]):
        assert r["commitment"] == sha(r["salt"] + ":" + " ".join(stock))


def test_finished_hands_replay_to_their_results_with_house_rules(make_app, tmp_path, capsys):
    app = make_app()
    api, rng = Api(app), random.Random(3)
    code = api.create("tongits", 3, options={"jackpot": 1, "bonus": 2, "long_run_bonus": 3,
                                             "sapaw_blocks_draw": "hand"},
                      bots={"2": "easy"})
    tokens = [api.join(code, "Ana"), api.join(code, "Ben")]
    commitments, chips = {}, [0, 0, 0]
    for number in (1, 2, 3):
        seen = play_hand(api, code, tokens, rng)
        first = seen[0][0]
        assert first["hand_number"] == number
        # Every view of the hand, of every seat, carried the same commitment.
        shown = {v["deal_commitment"] for vs in seen.values() for v in vs}
        assert len(shown) == 1 and len(first["deal_commitment"]) == 64
        commitments[number] = shown.pop()
        chips = [c + n for c, n in zip(chips, seen[0][-1]["result"]["net"])]
        if number < 3:
            next_hand(api, code, tokens)
    listed = api.client.get(f"/api/tables/{code}/hands", headers=bearer(tokens[1])).json["hands"]
    assert [h["number"] for h in listed] == [1, 2, 3]
    for h in listed:
        schema("HandSummary").validate(h)
    assert [c["chips"] for c in api.view(code, tokens[0])["players"]] == chips
    files = {}
    for h in listed:
        r = api.client.get(f"/api/tables/{code}/hands/{h['number']}", headers=bearer(tokens[0]))
        assert r.status_code == 200
        doc = files[h["number"]] = r.json
        check_file(tmp_path, capsys, doc, commitments[h["number"]])
        assert doc["options"]["bonus"] == 2 and doc["players"] == 3 and doc["game"] == "tongits"
        assert h["net"] == doc["result"]["net"] and h["end"] == doc["result"]["end"]
        assert h["winners"] == doc["result"]["winners"] and h["ended_at"].endswith("Z")
        assert not any(a["do"] == "next" for a in doc["actions"])
    # The side pot carries from hand to hand: each file's match is the pot before it.
    assert files[2]["match"]["pot"] == files[1]["result"]["pot"]
    # A restarted server gives the same files.
    again = Api(make_app())
    for n, doc in files.items():
        assert again.client.get(f"/api/tables/{code}/hands/{n}",
                                headers=bearer(tokens[0])).json == doc
    assert again.client.get(f"/api/tables/{code}/hands",
                            headers=bearer(tokens[0])).json["hands"] == listed
    # ... and the next hand, played after the restart, too.
    next_hand(again, code, tokens)
    seen = play_hand(again, code, tokens, rng)
    doc = again.client.get(f"/api/tables/{code}/hands/4", headers=bearer(tokens[1])).json
    check_file(tmp_path, capsys, doc, seen[1][0]["deal_commitment"])


def test_a_hand_in_play_has_no_file_and_other_tables_cannot_read(app, api):
    code = api.create("tongits", 3, bots={"2": "easy"})
    a, b = api.join(code, "Ana"), api.join(code, "Ben")
    other = api.create("tonk", 2)
    stranger = api.join(other, "Cy")
    get = app.test_client().get         # no seat cookie of its own
    assert get(f"/api/tables/{code}/hands", headers=bearer(a)).json == {"hands": []}
    r = get(f"/api/tables/{code}/hands/1", headers=bearer(a))
    assert r.status_code == 409 and "still being played" in r.json["error"]
    assert r.json == {"error": r.json["error"]}
    assert get(f"/api/tables/{code}/hands/2", headers=bearer(a)).status_code == 404
    assert get(f"/api/tables/{code}/hands/0", headers=bearer(a)).status_code == 404
    for path in (f"/api/tables/{code}/hands", f"/api/tables/{code}/hands/1"):
        assert get(path, headers=bearer(stranger)).status_code == 401
        assert get(path).status_code == 401
        assert get(path, headers=bearer("nonsense")).status_code == 401
    assert get("/api/tables/ZZZZ/hands", headers=bearer(a)).status_code == 404


def test_tonk_reshuffles_are_sealed_for_every_seat(make_app, tmp_path, capsys, decks):
    # A fixed deal that wins nothing at once (a dealt 41, 49, 50 or 13 would end the hand
    # before any reshuffle); the reshuffles themselves are random.
    deck = [parse(r + s) for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]
    random.Random(11).shuffle(deck)
    decks[1] = (deck + [parse("JK")], 0)
    app = make_app()
    api, rng = Api(app), random.Random(7)
    code = api.create("tonk", 3, options={"stock_out": "reshuffle", "hand_size": 12,
                                          "wilds": "deuces_joker"})
    tokens = [api.join(code, f"P{s}") for s in range(3)]
    table = app.extensions["baraha.tables"].get(code)
    assert table.hand is not None and not table.hand.over, "the deal won at once"
    reshuffles = []

    def choose(view, moves):
        hand = table.hand
        if len(reshuffles) >= 2 and any(m["do"] == "drop" for m in moves):
            return {"do": "drop"}
        if {"do": "draw"} in moves:
            if not hand.stock and len(hand.discard) > 1:
                reshuffles.append(view["version"])
            return {"do": "draw"}
        return rng.choice([m for m in moves if m["do"] == "discard"])

    seen = play_hand(api, code, tokens, rng, choose)
    assert len(reshuffles) == 2
    draws = [[e for e in vs[-1]["events"] if "commitment" in e] for vs in seen.values()]
    sealed = [[(e["do"], e["commitment"]) for e in d] for d in draws]
    assert len(sealed[0]) == 2 and sealed[0] == sealed[1] == sealed[2]
    assert all(do == "draw" for do, _ in sealed[0])
    assert all("stock" not in e for d in draws for e in d)
    doc = api.client.get(f"/api/tables/{code}/hands/1", headers=bearer(tokens[2])).json
    check_file(tmp_path, capsys, doc, seen[0][0]["deal_commitment"])
    assert [r["commitment"] for r in doc["fairness"]["reshuffles"]] == \
        [e["commitment"] for e in draws[0]]
    assert len(doc["deal"]["deck"]) == 53


@pytest.fixture
def finished(make_app, tmp_path):
    app = make_app()
    api = Api(app)
    code = api.create("tongits", 3, bots={"1": "easy", "2": "easy"})
    token = api.join(code, "Ana")
    play_hand(api, code, [token], random.Random(5))
    doc = api.client.get(f"/api/tables/{code}/hands/1", headers=bearer(token)).json
    return app, code, token, doc


def test_export_writes_the_download_and_verify_checks_it(finished, tmp_path, capsys):
    app, code, token, doc = finished
    db = app.config["DATABASE"]
    download = Api(app).client.get(f"/api/tables/{code}/hands/1?download=1",
                                   headers=bearer(token))
    assert "attachment" in download.headers["Content-Disposition"]
    capsys.readouterr()
    assert main(["export", "--db", db, code.lower(), "1"]) == 0
    out = capsys.readouterr().out
    assert out == download.get_data(as_text=True) and json.loads(out) == doc
    assert main(["export", "--db", db, code]) == 0
    assert [json.loads(ln) for ln in capsys.readouterr().out.splitlines()] == [doc]
    path = tmp_path / "hand.json"
    path.write_text(out)
    assert main(["verify", str(path)]) == 0
    assert "ok" in capsys.readouterr().out


@pytest.mark.parametrize("args, says", [
    (["--db", "{tmp}/nothing.sqlite3", "ABCD"], "no database"),
    (["--db", "{db}", "ZZZZ"], "no table ZZZZ"),
    (["--db", "{db}", "{code}", "9"], "no hand 9"),
    (["--db", "{tmp}/junk.sqlite3", "ABCD"], "not a Baraha database"),
])
def test_export_refuses_in_one_line(finished, tmp_path, capsys, args, says):
    app, code, _, _ = finished
    (tmp_path / "junk.sqlite3").write_text("not a database at all " * 100)
    capsys.readouterr()
    filled = [a.format(tmp=tmp_path, db=app.config["DATABASE"], code=code) for a in args]
    assert main(["export", *filled]) == 2
    out = capsys.readouterr()
    assert out.out == "" and says in out.err and len(out.err.strip().splitlines()) == 1


def _card(doc):
    deck = doc["deal"]["deck"]
    deck[0], deck[-1] = deck[-1], deck[0]


def _salt(doc):
    salt = doc["fairness"]["salt"]
    doc["fairness"]["salt"] = ("0" if salt[0] != "0" else "1") + salt[1:]


def _action(doc):
    acts = doc["actions"]
    i = next(i for i, a in enumerate(acts) if a["do"] == "discard")
    # A card another seat discards later: at the first discard it was never in this hand
    # (in another hand or in the stock), so the changed action is refused.
    other = next(a["card"] for a in acts[i + 1:] if a["do"] == "discard"
                 and a["seat"] != acts[i]["seat"] and a["card"] != acts[i]["card"])
    acts[i] = {**acts[i], "card": other}


@pytest.mark.parametrize("change, names", [(_card, "deal.deck"), (_salt, "fairness.salt"),
                                           (_action, "actions")])
def test_verify_names_what_was_changed(finished, tmp_path, capsys, change, names):
    doc = json.loads(json.dumps(finished[3]))
    change(doc)
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["verify", str(path)]) == 1
    assert names in capsys.readouterr().out


class Api:
    """The JSON API on one app (tests/web/conftest.py's, for a second app too)."""

    def __init__(self, app):
        from .conftest import Api as Base
        self.base = Base(app.test_client())
        self.client = self.base.client

    def __getattr__(self, name):
        return getattr(self.base, name)
