"""`baraha replay` on Tonk's house-rule fields: malformed `as` and `stock` and misplaced
jokers are exit 2 (nothing on standard output); the whole shared corpus still replays
exactly in process, beside test_replay.py's subprocess sample."""
from __future__ import annotations

import json

import pytest

from tests.engine.test_replay import SHARED, _base, replay
from webapp.engine.scenario import load, play

WILD = "tonk-option-wilds-joker-tonk"
RESHUFFLE = "tonk-option-stock_out-reshuffle"


def _doc(name: str, change) -> str:
    doc = _base(name)
    change(doc)
    return json.dumps(doc)


def _act(i: int, key: str, value):
    return lambda d: d["actions"][i].__setitem__(key, value)


MALFORMED = [
    ("as-not-object", _doc(WILD, _act(1, "as", ["JK", "6H"])), ["actions[1].as"]),
    ("as-bad-card", _doc(WILD, _act(1, "as", {"JK": "6X"})), ["actions[1].as", "6X"]),
    ("as-bad-key", _doc(WILD, _act(1, "as", {"ZZ": "6H"})), ["actions[1].as", "ZZ"]),
    ("stock-not-list", _doc(RESHUFFLE, _act(4, "stock", "KD")), ["actions[4].stock"]),
    ("stock-bad-card", _doc(RESHUFFLE, _act(4, "stock", ["KD", "1X"])), ["actions[4].stock[1]", "1X"]),
    ("joker-without-option", _doc(WILD, lambda d: d["options"].update(wilds="deuces")),
     ["deal.hands[1]", "joker"]),
    ("joker-in-tongits-action", _doc("tongits-end-tongit-empty-hand",
                                     _act(0, "card", "JK")), ["actions[0]", "joker"]),
    ("deck-53-without-joker-option", _doc("tonk-end-tonk", lambda d: d.update(
        deal={"deck": [r + s for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()] + ["JK"]})),
     ["deal.deck"]),
    ("deck-52-with-joker-option", _doc("tonk-end-tonk", lambda d: d.update(
        options={"wilds": "deuces_joker"},
        deal={"deck": [r + s for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]})),
     ["deal.deck", "53"]),
    ("twelve-cards-four-players", _doc("tonk-end-tonk", lambda d: d.update(
        options={"hand_size": 12}, players=4)), ["players"]),
    ("bad-wilds", _doc(WILD, lambda d: d["options"].update(wilds="jokers")), ["options.wilds"]),
    ("bad-face-values", _doc(WILD, lambda d: d["options"].update(face_values="11")),
     ["options.face_values"]),
]


@pytest.mark.parametrize("text,needles", [(t, n) for _, t, n in MALFORMED],
                         ids=[i for i, _, _ in MALFORMED])
def test_malformed_variant_fields(text: str, needles: list[str]):
    proc = replay("-", stdin=text)
    assert proc.returncode == 2, f"exit {proc.returncode}\nstdout: {proc.stdout}\nstderr: {proc.stderr}"
    assert proc.stdout == ""
    for needle in needles:
        assert needle.lower() in proc.stderr.lower(), f"stderr {proc.stderr!r} lacks {needle!r}"


def test_face_values_as_a_number_is_the_same_option():
    hand, _ = load(json.dumps(_base("tonk-option-face_values") | {"options": {"face_values": 10}}))
    assert hand.options["face_values"] == "10"


def test_a_full_53_card_deck_deals():
    deck = [r + s for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()] + ["JK"]
    doc = {"game": "tonk", "players": 2, "options": {"wilds": "deuces_joker"},
           "deal": {"deck": deck}, "actions": []}
    hand, _ = load(json.dumps(doc))
    assert sum(map(len, hand.hands)) + len(hand.stock) + len(hand.discard) == 53


def _corpus():
    for name in ("corpus-tongits.jsonl", "corpus-tonk.jsonl"):
        for i, line in enumerate((SHARED / name).read_text(encoding="utf-8").splitlines()):
            if line.strip():
                yield pytest.param(line, id=f"{name}:{i + 1}")


@pytest.mark.parametrize("line", list(_corpus()))
def test_whole_corpus_replays_exactly(line: str):
    doc = json.loads(line)
    out, _ = play(*load(line))
    want = doc["expect"]
    if want.get("error"):
        assert out["error"]["index"] == want["error"]["index"]
        out = {k: v for k, v in out.items() if k != "error"}
        want = {k: v for k, v in want.items() if k != "error"}
    assert out == want
