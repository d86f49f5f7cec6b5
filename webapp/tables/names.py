"""Names people can trust: what a player's name may be, and when two names look the same.

`clean(name)` normalizes a typed name (NFKC), drops what nobody can see or what rearranges
text (control, format, private-use, unassigned characters, fillers like U+3164 and
U+2800, default-ignorable marks that draw nothing: the grapheme joiner, variation
selectors other than an emoji's own), squeezes spaces, and refuses a name that is empty
after that, too long (NAME_MAX as people see it: grapheme clusters, counted by the `regex`
package's \\X; and NAME_CODE_POINTS code points, so one cluster cannot hide a hundred),
with more than MARKS_PER_LETTER combining marks on one letter (a letter buried under a pile
of accents), or that reads like a label the screen gives ("You", "Seat 2", "Host", "Bot"),
also through look-alikes and digits read as letters ("Y0u", "Seat l"). The result holds only letters, marks, numbers, punctuation,
symbols and plain spaces, so no later formatting step (regexes, templates, log lines)
meets a character it was not written for.

`clash(name, others)` says which other name at the table it cannot be told apart from:
both compared by their skeleton (`skeleton`), Unicode's confusable skeleton of UTS #39
(each character mapped to the prototype its confusables.txt gives, as the
`confusable-homoglyphs` package ships it, a sequence where the data has one: "m" -> "rn"),
with small capitals read as capitals, case folded and accents off, so that "Ana" and
"ɑna" (a Latin alpha), "ꓮna" (Lisu), "Ꭺna" (Cherokee), "ᴀna" (a small capital),
"Pa0lo"/"Paolo" and "Rnario"/"Mario" are one name. Two pairs of letters that read as one
letter are not in Unicode's data (17.0 lists "m" -> "rn" only): "w" -> "vv" and "d" -> "cl"
are added here (SEQUENCES), so "VVowie"/"Wowie" and "Dacl"/"Dad" are one name too.
"""
from __future__ import annotations

import functools
import re
import unicodedata

import regex

from .errors import BadRequest

NAME_MAX = 24       # characters as people see them (grapheme clusters)
NAME_CODE_POINTS = 64   # code points in all: a cluster can chain any number of them
MARKS_PER_LETTER = 4    # combining marks one letter may carry (Vietnamese needs two)
# Letters that draw nothing (Hangul fillers, Braille blank, ...): categories say "letter"
# or "symbol", but on screen they are empty.
BLANKS = set("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
DROP_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# Marks that draw nothing (default ignorable, though their category says "mark"): the
# grapheme joiner, Mongolian free variation selectors, variation selectors. An emoji's own
# text or emoji presentation selector (U+FE0E, U+FE0F after a symbol) is kept.
IGNORED_MARKS = re.compile("[\u034f\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")
EMOJI_STYLE = "\ufe0e\ufe0f"
# The screen's own words for a seat: a player named so would pass for another label.
# Compared by skeleton (`_labels`), so look-alikes and digits read as letters count too.
LABEL_WORDS = ("you", "me", "host", "bot", "free", "nobody", "the side pot")
NUMBERED = ("seat", "player")           # "Seat 2", "Player 3"
# Letter pairs that read as one letter, missing from UTS #39's data (which maps m -> rn):
# mapped the same way, each letter to the pair it looks like.
SEQUENCES = {"w": "vv", "d": "cl"}
GRAPHEME = regex.compile(r"\X")


def seen_length(name: str) -> int:
    """How many characters people see: Unicode's extended grapheme clusters (a letter with
    its accents is one, an emoji with its skin tone or its variation selector is one, a
    flag is one)."""
    return len(GRAPHEME.findall(name))


def _visible(text: str) -> str:
    """Without the marks that draw nothing (an emoji's presentation selector stays)."""
    out = []
    for i, ch in enumerate(text):
        if IGNORED_MARKS.match(ch) and not (ch in EMOJI_STYLE and i and
                                            unicodedata.category(text[i - 1]) == "So"):
            continue
        out.append(ch)
    return "".join(out)


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
    name = re.sub(" +", " ", _visible("".join(kept))).strip()
    # NFKC again: dropping a joiner can leave a sequence that composes.
    name = unicodedata.normalize("NFKC", name)
    if not name or all(unicodedata.category(ch)[0] in "MZ" for ch in name):
        raise BadRequest("name: type a name people can see (it was empty, or only "
                         "invisible characters)")
    letters = GRAPHEME.findall(name)
    if len(letters) > NAME_MAX or len(name) > NAME_CODE_POINTS:
        raise BadRequest(f"name: must be 1 to {NAME_MAX} characters long")
    if any(sum(unicodedata.category(ch)[0] == "M" for ch in g) > MARKS_PER_LETTER
           for g in letters):
        raise BadRequest(f"name: at most {MARKS_PER_LETTER} accents or marks on one letter, "
                         "so that every letter can be read")
    if reads_as_label(name):
        raise BadRequest(f'name: "{name}" reads like a label the screen uses ("You", '
                         '"Seat 2", "Host"): it could pass for another player; choose another')
    return name


@functools.lru_cache(maxsize=1)
def _labels() -> tuple[frozenset, re.Pattern, re.Pattern]:
    """(the label words' skeletons, a numbered label as typed, a numbered label with its
    digits read as the letters they look like: "Seat l", "Player O")."""
    words = frozenset(skeleton(w) for w in LABEL_WORDS)
    numbered = "|".join(re.escape(skeleton(w, digits=False)) for w in NUMBERED)
    folded = "|".join(sorted({re.escape(skeleton(d)) for d in "0123456789"}, key=len,
                             reverse=True))
    typed = re.compile(rf"^(?:{numbered})\s*\d+$|\b(?:{numbered})\s*\d|\((?:you|bot|host)\)")
    read = re.compile(rf"^(?:{numbered})\s*(?:{folded})+$")
    return words, typed, read


def reads_as_label(name: str) -> bool:
    """Whether `name` reads like a label of the screen ("You", "Seat 2", "(bot)"), also
    written with look-alikes or with digits for letters ("Y0u") and letters for digits."""
    words, typed, read = _labels()
    folded = skeleton(name)
    return folded in words or bool(read.match(folded)) or bool(typed.search(
        skeleton(name, digits=False)))


@functools.lru_cache(maxsize=4096)
def _glyphs(ch: str) -> tuple[str, ...]:
    """What UTS #39's confusables.txt pairs `ch` with: its prototype, or, for a prototype,
    the characters mapped to it."""
    from confusable_homoglyphs import confusables       # 900 KB of data: when first needed
    found = confusables.is_confusable(ch, greedy=True)
    return tuple(h["c"] for h in found[0]["homoglyphs"]) if found else ()


@functools.lru_cache(maxsize=4096)
def prototype(ch: str) -> str:
    """The character `ch` is confusable with in UTS #39's skeletons (one character, or the
    sequence it looks like: "m" -> "rn"), then a small capital read as its capital ("ᴀ"
    and "ꭺ" -> "A")."""
    if ch in SEQUENCES:
        return SEQUENCES[ch]
    glyphs = _glyphs(ch)
    proto = ch
    if len(glyphs) == 1 and len(glyphs[0]) > 1:
        return glyphs[0]            # a sequence ("m" -> "rn"): UTS #39 maps to it as is
    if len(glyphs) == 1 and len(glyphs[0]) == 1:
        other = glyphs[0]
        back = _glyphs(other)
        # `ch` maps to `other` when `other` is the prototype of several; two characters
        # that only name each other are one class: the lower code point stands for both.
        proto = other if len(back) > 1 else min(ch, other)
    name = unicodedata.name(proto, "")
    if " SMALL CAPITAL " in name:
        letter = name.rsplit(" ", 1)[1]
        if len(letter) == 1 and "A" <= letter <= "Z":
            proto = letter
    return proto


def skeleton(name: str, digits: bool = True) -> str:
    """What a name looks like: each character mapped to its UTS #39 prototype, case
    folded, accents off, and mapped again (a folded capital has its own look-alikes).
    `digits` False keeps digits as they are (the labels' check: "Seat 1")."""
    text = _visible(unicodedata.normalize("NFKC", name))
    for _ in range(2):
        text = "".join(ch if ch.isdigit() and not digits else prototype(ch) for ch in text)
        text = unicodedata.normalize("NFKD", text.casefold())
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
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
