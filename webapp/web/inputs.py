"""What a phone sends, read safely: whole numbers in ASCII digits only, and JSON no deeper
than an action or a house rule needs.

Python reads "²" as a digit (str.isdigit) that int() then refuses, and "١٢" (Arabic-Indic)
as 12; a form or an address is read here instead, so neither is a 500 nor a surprise.
JSON nested a few thousand deep makes the parser give up (RecursionError), and a few
hundred deep can still break a later step that walks it: both are refused by name.
"""
from __future__ import annotations

import json

from ..tables.errors import BadRequest

MAX_DEPTH = 16          # an action is 3 deep ({"onto": {"seat": ...}}), a body 4 or 5


def whole(raw, most_digits: int = 6) -> int | None:
    """`raw` as a whole number when it is 1 to `most_digits` ASCII digits, else None."""
    if isinstance(raw, str):
        raw = raw.strip()
        if 0 < len(raw) <= most_digits and raw.isascii() and raw.isdigit():
            return int(raw)
    return None


def depth(value) -> int:
    """How deeply lists and objects nest in `value` (a loop: no recursion to run out of)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                return level
            todo.extend((x, level + 1) for x in item)
    return deepest


def checked(value, what: str = "the request"):
    """`value` itself; BadRequest when it nests deeper than MAX_DEPTH."""
    if depth(value) > MAX_DEPTH:
        raise BadRequest(f"{what} is nested too deeply (at most {MAX_DEPTH} levels)")
    return value


def json_value(text, what: str = "the request"):
    """JSON text read, or BadRequest naming `what`: not JSON, or nested too deeply."""
    if not isinstance(text, str):
        raise BadRequest(f"{what} is missing")
    try:
        value = json.loads(text)
    except RecursionError:      # "[[[[...]]]]" a few thousand deep: the parser gives up
        raise BadRequest(f"{what} is nested too deeply (at most {MAX_DEPTH} levels)") from None
    except ValueError:
        raise BadRequest(f"{what} is not JSON the server can read") from None
    return checked(value, what)
