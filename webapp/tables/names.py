"""Names people can trust: what a player's name may be, and when two names look the same.

`clean(name)` normalizes a typed name (NFKC), drops what nobody can see or what rearranges
text (control, format, private-use, unassigned characters, fillers like U+3164 and
U+2800), squeezes spaces, and refuses a name that is empty after that, too long, or reads
like a label the screen gives ("You", "Seat 2", "Host", "Bot"). `clash(name, others)` says
which other name at the table it cannot be told apart from: case folded and look-alikes
mapped to one letter (`skeleton`). The result holds only letters, marks, numbers,
punctuation, symbols and plain spaces, so no later formatting step (regexes, templates,
log lines) meets a character it was not written for.

The look-alike table is our own compact one (Cyrillic and Greek letters that look like
Latin ones, and digit/letter pairs like 0/O, 1/l): the usual attack at a family table is
"Аna" with a Cyrillic А; Unicode's full confusables list (UTS #39) has no small, well-kept
package on PyPI.
"""
from __future__ import annotations

import re
import unicodedata

from .errors import BadRequest

NAME_MAX = 24      # characters as people see them (seen_length), not code points or UTF-16 units
# Letters that draw nothing (Hangul fillers, Braille blank, ...): categories say "letter"
# or "symbol", but on screen they are empty.
BLANKS = set("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
DROP_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# The screen's own words for a seat: a player named so would pass for another label.
RESERVED = re.compile(r"^(you|me|host|bot|free|nobody|the side pot|seat\s*\d+|player\s*\d+)$")
LABELLIKE = re.compile(r"\bseat\s*\d|\((you|bot|host)\)")

# Look-alikes, folded to the Latin letter they pass for (after casefold).
_LOOKS = {
    # Cyrillic
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i",
    "ј": "j", "к": "k", "ӏ": "l", "м": "m", "н": "h", "о": "o", "р": "p", "ԛ": "q", "г": "r",
    "ѕ": "s", "т": "t", "ц": "u", "ѵ": "v", "ԝ": "w", "х": "x", "у": "y", "ү": "y", "з": "3",
    "ь": "b", "п": "n", "л": "n", "и": "u", "ԍ": "g", "ɡ": "g",
    # Greek
    "α": "a", "β": "b", "ϲ": "c", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w", "μ": "u",
    "ζ": "z", "ϳ": "j", "ѡ": "w",
    # Latin letters with another shape of the same look
    "ı": "l", "ł": "l", "ɩ": "l", "ʟ": "l", "ß": "ss", "ſ": "s",
}
# Digits and letters that pass for one another (not for the labels' check: "Seat 1").
_DIGITS = {"0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "$": "s", "@": "a"}
_LETTERS = str.maketrans(_LOOKS)
_ALL = str.maketrans({**_LOOKS, **_DIGITS})


def seen_length(name: str) -> int:
    """How many characters people see (Unicode's grapheme clusters, closely enough for a
    name): a letter with its accents is one, an emoji with its skin tone or its variation
    selector is one, a flag (two regional indicators) is one."""
    n, half_flag = 0, False
    for ch in name:
        o = ord(ch)
        if unicodedata.category(ch)[0] == "M" or 0xFE00 <= o <= 0xFE0F or 0x1F3FB <= o <= 0x1F3FF \
                or o == 0x200D or 0xE0020 <= o <= 0xE007F:
            continue
        if 0x1F1E6 <= o <= 0x1F1FF:
            half_flag = not half_flag
            if not half_flag:
                continue
        else:
            half_flag = False
        n += 1
    return n


def clean(name) -> str:
    """The name as it will be shown; BadRequest naming the problem otherwise."""
    if not isinstance(name, str):
        raise BadRequest('name: must be text, like "Ana"')
    if len(name) > NAME_MAX * 8:        # before any work: a name is a few words
        raise BadRequest(f"name: must be 1 to {NAME_MAX} characters long")
    name = unicodedata.normalize("NFKC", name)
    kept = []
    for ch in name:
        cat = unicodedata.category(ch)
        if cat in ("Zs", "Zl", "Zp") or ch in "\t\n\r\v\f":
            kept.append(" ")        # every kind of space or line break is a plain space
        elif cat not in DROP_CATEGORIES and ch not in BLANKS:
            kept.append(ch)
    name = re.sub(" +", " ", "".join(kept)).strip()
    # NFKC again: dropping a joiner can leave a sequence that composes.
    name = unicodedata.normalize("NFKC", name)
    if not name or all(unicodedata.category(ch)[0] in "MZ" for ch in name):
        raise BadRequest("name: type a name people can see (it was empty, or only "
                         "invisible characters)")
    if seen_length(name) > NAME_MAX:
        raise BadRequest(f"name: must be 1 to {NAME_MAX} characters long")
    label = skeleton(name, digits=False)
    if RESERVED.match(label) or LABELLIKE.search(label):
        raise BadRequest(f'name: "{name}" reads like a label the screen uses ("You", '
                         '"Seat 2", "Host"): it could pass for another player; choose another')
    return name


def skeleton(name: str, digits: bool = True) -> str:
    """What a name looks like: casefolded, accents off, look-alikes to one Latin letter."""
    text = unicodedata.normalize("NFKD", name.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.translate(_ALL if digits else _LETTERS)
    return re.sub(r"[\s._'\-]+", " ", text).strip()


def clash(name: str, others) -> str | None:
    """The other seat's name that `name` cannot be told apart from, if any."""
    mine = skeleton(name)
    for other in others:
        if other and skeleton(other) == mine:
            return other
    return None


def check_unique(name: str, others) -> None:
    same = clash(name, others)
    if same is not None:
        raise BadRequest(f'name: "{name}" looks the same as "{same}", who already sits at '
                         "this table: choose another")
