"""A phone at its cap of open tables (the home page, tests/e2e/test_host_evening.py plays it
in a browser): the refusal and every answer of Close and Leave in the phone's language;
Close only by the host's seat, Leave only by another seat."""
from __future__ import annotations

from webapp.tables import tables_of

from .test_pages import create, sit, token_of


def _post(client, path: str):
    return client.post(path, data={"csrf_token": token_of(client)})


def test_close_and_leave_answer_in_the_phones_language(make_app):
    app = make_app(TABLES_PER_CLIENT=2)
    ana = app.test_client()
    ana.set_cookie("baraha-lang", "fil")
    first, second = create(ana, game="tonk", players="2"), create(ana, game="tonk", players="3")
    ben = sit(app, second, "Ben", 1)
    ben.set_cookie("baraha-lang", "fil")

    # The third is refused in Filipino, the two tables listed with Close (Ana is host).
    r = ana.post("/create", data={"csrf_token": token_of(ana), "name": "Ana", "game": "tonk"})
    page = r.get_data(as_text=True)
    assert r.status_code == 429 and "May 2 bukas na mesa na ang teleponong ito" in page
    assert page.count('data-do="close"') == 2 and 'data-do="leave"' not in page

    # Ana is the host: she closes, she does not leave; Ben may not close Ana's table.
    r = _post(ana, f"/t/{second}/leave")
    assert r.status_code == 403 and "Ikaw ang host: isara ang mesa" in r.get_data(as_text=True)
    r = _post(ben, f"/t/{second}/close")
    assert r.status_code == 403 and "Ana" in r.get_data(as_text=True)
    assert not tables_of(app).get(second).closed

    # Ben leaves: a bot plays his seat, and his browser forgets it.
    r = _post(ben, f"/t/{second}/leave")
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/?left={second}")
    assert tables_of(app).get(second).seats[1].bot == "normal"
    assert "Umalis ka sa mesa" in ben.get(r.headers["Location"]).get_data(as_text=True)
    assert ben.get_cookie(f"baraha_{second}") is None

    # Ana closes the first: said at home in her words; Cy's close, too late, says it is closed.
    cy = sit(app, first, "Cy", 1)
    cy.set_cookie("baraha-lang", "fil")
    cy_form = {"csrf_token": token_of(cy)}          # her page, open before the close
    r = _post(ana, f"/t/{first}/close")
    assert r.status_code == 303 and tables_of(app).get(first).closed
    assert "Sarado na ang mesa " + first in ana.get(r.headers["Location"]).get_data(as_text=True)
    r = cy.post(f"/t/{first}/close", data=cy_form)
    assert r.status_code == 410 and f"Sarado na ang mesa {first}" in r.get_data(as_text=True)
