"""The running totals of a match as an SVG drawn here (no chart library in the page).

Plain SVG with classes only: its colours come from the page's CSS (static/css/evening.css:
light, dark and the four-colour palette), each seat also has its own mark and dash so the
lines part without colour, and the chart scales to the width of a 320 px phone. Seats with
the same total at a hand are drawn a few pixels apart around it, so no line hides another.
"""
from __future__ import annotations

from markupsafe import Markup, escape

W, H = 320, 180                 # the viewBox; the SVG is as wide as its box
LEFT, RIGHT, TOP, BOTTOM = 34, 10, 10, 24
MARKS = ("circle", "square", "triangle", "diamond", "cross", "bar")
APART = 3.5                     # px between the lines of seats with equal totals


def _ticks(low: int, high: int, most: int = 5) -> list[int]:
    span = max(1, high - low)
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000,
                            10_000, 10**9) if span / s <= most)
    start = -(-low // step) * step
    return list(range(start, high + 1, step))


def _mark(kind: str, x: float, y: float) -> str:
    if kind == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.2"/>'
    if kind == "square":
        return f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6"/>'
    if kind == "triangle":
        return f'<path d="M{x:.1f} {y - 3.8:.1f}L{x + 3.6:.1f} {y + 2.8:.1f}H{x - 3.6:.1f}Z"/>'
    if kind == "diamond":
        return f'<path d="M{x:.1f} {y - 4:.1f}L{x + 4:.1f} {y:.1f}L{x:.1f} {y + 4:.1f}L{x - 4:.1f} {y:.1f}Z"/>'
    if kind == "cross":
        return f'<path class="x" d="M{x - 3:.1f} {y - 3:.1f}L{x + 3:.1f} {y + 3:.1f}M{x + 3:.1f} {y - 3:.1f}L{x - 3:.1f} {y + 3:.1f}"/>'
    return f'<rect x="{x - 1.6:.1f}" y="{y - 4:.1f}" width="3.2" height="8"/>'


def _apart(series: list[list[int]]) -> list[list[float]]:
    """Each point's nudge up or down: the seats sharing a total at a hand are spread APART
    from one another, centred on it (in seat order, so the nudges are the same each time)."""
    out = [[0.0] * len(line) for line in series]
    for i in range(max(map(len, series), default=0)):
        sharing: dict[int, list[int]] = {}
        for s, line in enumerate(series):
            if i < len(line):
                sharing.setdefault(line[i], []).append(s)
        for seats in sharing.values():
            for k, s in enumerate(seats):
                out[s][i] = (k - (len(seats) - 1) / 2) * APART
    return out


def running_totals(series: list[list[int]], hands: list[int], label: str) -> Markup:
    """`series[s]`: seat s's total before the first hand (0) and after each of `hands`."""
    values = [v for line in series for v in line] or [0]
    low, high = min(values + [0]), max(values + [0])
    if low == high:
        low, high = low - 1, high + 1
    n = max(1, len(hands))
    plot_w, plot_h = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + plot_w * i / n

    def y(v: int) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    out = [f'<svg class="chart" viewBox="0 0 {W} {H}" role="img" aria-label="{escape(label)}" '
           f'preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">',
           f"<title>{escape(label)}</title>", '<g class="grid">']
    for t in _ticks(low, high):
        zero = ' class="zero"' if t == 0 else ""
        out.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(t):.1f}" y2="{y(t):.1f}"{zero}/>')
        out.append(f'<text x="{LEFT - 5}" y="{y(t) + 4:.1f}" text-anchor="end">'
                   f'{"%+d" % t if t else "0"}</text>')
    every = max(1, -(-len(hands) // 8))         # at most 8 hand numbers along the bottom
    for i, number in enumerate(hands, 1):
        if i % every == 0 or i == len(hands):
            out.append(f'<text x="{x(i):.1f}" y="{H - 6}" text-anchor="middle">{number}</text>')
    out.append("</g>")
    nudges = _apart(series)
    for s, line in enumerate(series):
        at = [(x(i), y(v) + nudges[s][i]) for i, v in enumerate(line)]
        points = " ".join(f"{px:.1f},{py:.1f}" for px, py in at)
        out.append(f'<g class="series s{s}"><polyline points="{points}"/>')
        out.append("".join(_mark(MARKS[s % len(MARKS)], px, py) for px, py in at[1:]))
        out.append("</g>")
    out.append("</svg>")
    return Markup("".join(out))


def swatch(seat: int) -> Markup:
    """The seat's mark and colour for the legend, as in the chart."""
    return Markup(f'<svg class="swatch series s{seat}" viewBox="0 0 24 12" aria-hidden="true">'
                  f'<line x1="1" x2="23" y1="6" y2="6"/>{_mark(MARKS[seat % len(MARKS)], 12, 6)}'
                  "</svg>")
