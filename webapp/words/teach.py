"""Words for learning: a hint's or a review's reason, made from the facts of
webapp/bots/hints.py (data: a key, cards as texts, counts, seats), never from sentences."""
from __future__ import annotations

from . import Words


def why(words: Words, fact: dict) -> str:
    """One sentence: why this move. `words` is the reader's (its translate and card style)."""
    key = fact["key"]
    if key == "call_draw" and not fact.get("blocked_ever") and words.game == "tongits":
        key = "call_draw.free"
    values = {k: v for k, v in fact.items() if k not in ("key", "blocked_ever")}
    for k in ("card", "wild"):
        if values.get(k):
            values[k] = words.card(values[k])
    if "cards" in values:
        values["cards"] = words.cards(values["cards"])
    if "caller" in values:
        values["caller"] = words.name(values["caller"])
    if "owner" in values:
        values["owner"] = words.name(values["owner"])
    try:
        template = words.template(f"hint.{key}")
    except KeyError:
        template = words.template("hint.other")
    return template.format(**values)
