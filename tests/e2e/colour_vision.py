"""Colours as a colour-blind eye sees them, for the palette test: a screenshot's pixels
(PNG, decoded here with zlib: no imaging package), Machado, Oliveira and Fernandes' (2009)
simulation of deuteranopia and protanopia (severity 1, applied in linear sRGB), and the
CIEDE2000 difference between two colours in CIELAB."""
from __future__ import annotations

import math
import struct
import zlib
from collections import Counter

# Machado et al. 2009, severity 1.0 (the paper's table, as colour-science ships it).
VISIONS = {
    "normal": None,
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
}


def png_pixels(data: bytes) -> list[tuple[int, int, int]]:
    """Every pixel of an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + size]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and not interlace, (depth, ctype, interlace)
            step = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + size
    raw, stride = zlib.decompress(idat), width * step
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up, corner = prev[i], prev[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(line)
        prev = line
    return [tuple(r[x * step:x * step + 3]) for r in rows for x in range(width)]


def ink(pixels, paper: tuple[int, int, int]) -> tuple[int, int, int]:
    """The colour a glyph is drawn in: the commonest of the pixels far from the paper
    (inside the strokes, where anti-aliasing mixes nothing in)."""
    far = lambda p: sum((a - b) ** 2 for a, b in zip(p, paper))
    top = max(far(p) for p in pixels)
    return Counter(p for p in pixels if far(p) >= top * .6).most_common(1)[0][0]


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= .04045 else ((c + .055) / 1.055) ** 2.4


def seen(rgb, vision: str) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour as that vision sees it."""
    lin = [_linear(c) for c in rgb]
    m = VISIONS[vision]
    if m is not None:
        lin = [min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3)]
    r, g, b = lin
    xyz = (.4124 * r + .3576 * g + .1805 * b) / .95047, .2126 * r + .7152 * g + .0722 * b, \
          (.0193 * r + .1192 * g + .9505 * b) / 1.08883
    f = [t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in xyz]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def de2000(lab1, lab2) -> float:
    """CIEDE2000 (Sharma, Wu and Dalal's formulation)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    cb = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = .5 * (1 - math.sqrt(cb ** 7 / (cb ** 7 + 25 ** 7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = math.degrees(math.atan2(b1, a1)) % 360, math.degrees(math.atan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 - 360 if h2 - h1 > 180 else h2 - h1 + 360 if h2 - h1 < -180 else h2 - h1)
    dl, dc, dhh = l2 - l1, c2 - c1, 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    lm, cm = (l1 + l2) / 2, (c1 + c2) / 2
    hm = h1 + h2 if c1 * c2 == 0 else ((h1 + h2) / 2 if abs(h1 - h2) <= 180 else
                                       (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2)
    t = (1 - .17 * math.cos(math.radians(hm - 30)) + .24 * math.cos(math.radians(2 * hm))
         + .32 * math.cos(math.radians(3 * hm + 6)) - .20 * math.cos(math.radians(4 * hm - 63)))
    sl = 1 + .015 * (lm - 50) ** 2 / math.sqrt(20 + (lm - 50) ** 2)
    sc, sh = 1 + .045 * cm, 1 + .015 * cm * t
    rt = -math.sin(math.radians(60 * math.exp(-((hm - 275) / 25) ** 2))) * 2 * math.sqrt(cm ** 7 / (cm ** 7 + 25 ** 7))
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))
