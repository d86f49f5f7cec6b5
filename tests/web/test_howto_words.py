"""How to play names the moves as the family's apps do: laying off is "sapaw", which
GameZone calls "sagasa", side by side, in both languages."""
from __future__ import annotations

import html
import re


def _howto(client, lang: str) -> str:
    client.set_cookie("baraha-lang", lang)
    page = html.unescape(client.get("/").data.decode())
    found = re.search(r'<section class="howto" id="howto-tongits".*?</section>', page, re.S)
    assert found, "the home page's How to play has no Tong-its section"
    return re.sub(r"<[^>]+>", "", found.group(0))


def test_how_to_play_names_sagasa_beside_sapaw_in_both_languages(client):
    english = _howto(client, "en")
    assert "Lay off (sapaw; GameZone calls it sagasa) if you like" in english
    filipino = _howto(client, "fil")
    assert "Sumapaw (sapaw; sa GameZone, sagasa) kung gusto mo" in filipino
