"""The deal is fair: every card is equally likely in every position, from the OS's randomness.

The shuffles come from `webapp.tables.deck.shuffled_deck`, the function `Table._deal` calls (checked
below with a spy on a real table). The thresholds are p < 1e-6: a fair shuffle fails about
once in a million runs, while the classic biased shuffle (swap each card with any position)
fails every time (checked too, so the statistic is known to be able to fail).
"""
from __future__ import annotations

import ast
import math
import random
import sqlite3
from pathlib import Path

import pytest

import webapp.tables.dealing
from webapp import create_app
from webapp.tables.deck import shuffled_deck
from webapp.tables import tables_of

SHUFFLES = 24_000
N = 52
P_FAIL = 1e-6
WEBAPP = Path(webapp.__file__).parent


# ---- statistics (no scipy: the regularized upper incomplete gamma function) ----------

def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X ~ chi-square(df): Q(df/2, x/2) (series / continued fraction)."""
    a, x = df / 2, x / 2
    if x <= 0:
        return 1.0
    log_pre = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:       # series for P, then Q = 1 - P
        term = total = 1 / a
        ap = a
        for _ in range(100_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1 - total * math.exp(log_pre))
    b, c, d = x + 1 - a, 1 / 1e-300, 1 / (x + 1 - a)     # Lentz's continued fraction for Q
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_pre) * h


def test_chi2_sf_matches_known_values():
    # Reference values from scipy.stats.chi2.sf; the shuffle's test is only as good as this.
    for x, df, p in [(3.841458820694124, 1, 0.05), (2601, 2601, 0.4963124706565348),
                     (2900, 2601, 3.0909109976265e-05), (3000, 2601, 6.416422225388009e-08),
                     (30, 51, 0.9916543942853495), (120, 51, 1.728891860823387e-07),
                     (10, 3, 0.01856613546304325)]:
        assert chi2_sf(x, df) == pytest.approx(p, rel=1e-9)


def position_counts(shuffle, shuffles: int = SHUFFLES) -> list[list[int]]:
    counts = [[0] * N for _ in range(N)]        # counts[card][position]
    for _ in range(shuffles):
        for pos, card in enumerate(shuffle()):
            counts[card][pos] += 1
    return counts


def unfair(counts, shuffles: int = SHUFFLES) -> list[str]:
    """Why these counts are not those of a uniform shuffle (empty if they are)."""
    expected = shuffles / N
    why = []
    # Every row and column sums to `shuffles`: (N-1)^2 degrees of freedom.
    x2 = sum((o - expected) ** 2 / expected for row in counts for o in row)
    p = chi2_sf(x2, (N - 1) ** 2)
    if p < P_FAIL:
        why.append(f"positions: chi-square {x2:.0f} on {(N - 1) ** 2} df, p = {p:.2e}")
    # Each card alone (a bias on one card is diluted in the whole table): Bonferroni.
    for card, row in enumerate(counts):
        x2c = sum((o - expected) ** 2 / expected for o in row)
        pc = chi2_sf(x2c, N - 1)
        if pc < P_FAIL / N:
            why.append(f"card {card}: chi-square {x2c:.0f} on {N - 1} df, p = {pc:.2e}")
    # And the single worst cell (binomial, normal approximation), Bonferroni over 52x52.
    sd = math.sqrt(shuffles * (1 / N) * (1 - 1 / N))
    worst = max(abs(o - expected) / sd for row in counts for o in row)
    limit = -_norm_isf(P_FAIL / (2 * N * N))
    if worst > limit:
        why.append(f"a cell is {worst:.1f} standard deviations off (limit {limit:.1f})")
    return why


def _norm_isf(p: float) -> float:
    """z with P(Z <= z) = p, by bisection on erfc (only used for tiny p)."""
    lo, hi = -40.0, 0.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if 0.5 * math.erfc(-mid / math.sqrt(2)) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


# ---- the server's shuffle ---------------------------------------------------------------

def test_the_servers_shuffle_puts_every_card_anywhere_with_equal_chance():
    counts = position_counts(shuffled_deck)
    assert all(sum(row) == SHUFFLES for row in counts)
    assert not unfair(counts)


def test_the_statistic_catches_a_biased_shuffle():
    rng = random.Random(1)

    def naive():            # swap each card with any position: the textbook bias
        deck = list(range(N))
        for i in range(N):
            j = rng.randrange(N)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    assert unfair(position_counts(naive))

    def last_card_stuck():  # a subtle one: a fair shuffle of 51 cards, one card never moves
        deck = list(range(N - 1))
        rng.shuffle(deck)
        return deck + [N - 1]

    assert unfair(position_counts(last_card_stuck, 2_000), 2_000)


def test_shuffles_are_permutations_and_differ():
    decks = [shuffled_deck() for _ in range(50)]
    assert all(sorted(d) == list(range(N)) for d in decks)
    assert len({tuple(d) for d in decks}) == 50


def test_a_real_deal_uses_shuffled_deck_and_never_the_random_module(tmp_path, monkeypatch):
    """Table._deal takes its deck from shuffled_deck; the Mersenne Twister is never asked."""
    made = []

    def spy(*cards):            # the game's cards: Tonk with a joker has 53
        deck = shuffled_deck(*cards)
        made.append(deck)
        return deck

    def refuse(*args, **kwargs):
        raise AssertionError("the random module's generator was used while dealing")

    monkeypatch.setattr(webapp.tables.dealing, "shuffled_deck", spy)
    # SystemRandom overrides these two; any Mersenne Twister instance would reach them.
    monkeypatch.setattr(random.Random, "random", refuse)
    monkeypatch.setattr(random.Random, "getrandbits", refuse)
    app = create_app({"DATABASE": str(tmp_path / "b.sqlite3"), "TESTING": True,
                      "BOT_DELAY": 0, "RATE_LIMIT": None})
    try:
        tables = tables_of(app)
        table = tables.create("tonk", 2, {}, {})
        table.join("Ana")
        table.join("Ben")
        assert len(made) == 1
        db = sqlite3.connect(app.config["DATABASE"])
        (deck,) = db.execute("SELECT deck FROM hands WHERE code = ?", (table.code,)).fetchone()
        db.close()
        assert deck == str(made[0]).replace(" ", "")
    finally:
        tables_of(app).shutdown()
        tables_of(app).store.close()


# ---- no `random` where cards are dealt ----------------------------------------------------

def _imports_random(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "random" for a in node.names):
            lines.append(node.lineno)
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "random":
            lines.append(node.lineno)
    return lines


def test_the_engine_never_imports_random():
    files = sorted((WEBAPP / "engine").rglob("*.py"))
    assert files
    bad = {str(f.relative_to(WEBAPP)): _imports_random(ast.parse(f.read_text())) for f in files}
    assert not {f: ln for f, ln in bad.items() if ln}


def test_server_code_uses_random_only_to_seed_a_bots_choices():
    """Outside bots/ (players, which may use random.Random for decisions), no server module
    imports `random`, except tables/turns.py, which only builds a bot's random.Random in
    play_bot."""
    found = {}
    for f in sorted(WEBAPP.rglob("*.py")):
        rel = f.relative_to(WEBAPP)
        if rel.parts[0] == "bots":
            continue
        tree = ast.parse(f.read_text())
        if _imports_random(tree):
            found[str(rel)] = tree
    turns = str(Path("tables") / "turns.py")
    assert set(found) <= {turns}, sorted(found)
    tree = found.get(turns) or ast.parse((WEBAPP / turns).read_text())
    uses = []
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                        and node.value.id == "random":
                    uses.append((fn.name, node.attr))
    all_uses = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute)
                and isinstance(n.value, ast.Name) and n.value.id == "random"]
    assert set(uses) <= {("play_bot", "Random")} and len(all_uses) == len(uses), uses
    dealing = ast.parse((WEBAPP / "tables" / "dealing.py").read_text())
    assert not _imports_random(dealing)
    deal = next(n for n in ast.walk(dealing) if isinstance(n, ast.FunctionDef) and n.name == "deal")
    called = {n.func.id for n in ast.walk(deal) if isinstance(n, ast.Call)
              and isinstance(n.func, ast.Name)}
    assert "shuffled_deck" in called
    deck_tree = ast.parse((WEBAPP / "tables" / "deck.py").read_text())
    assert not _imports_random(deck_tree)
    assert "SystemRandom" in ast.unparse(deck_tree)


def test_the_simulator_that_deals_with_random_is_not_part_of_the_server():
    for f in WEBAPP.rglob("*.py"):
        rel = f.relative_to(WEBAPP)
        if rel.parts[0] == "bots" or rel.name == "__main__.py":
            continue        # `baraha simulate` loads it lazily, the server never does
        text = f.read_text()
        assert "simulate" not in {a.name.split(".")[-1] for n in ast.walk(ast.parse(text))
                                  if isinstance(n, ast.ImportFrom) for a in n.names} \
            and "bots.simulate" not in text, rel
