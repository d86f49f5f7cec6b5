"""The template machinery made cheap (fragments.LeanEnvironment, i18n.template_gettext) gives
what Jinja's own would: the same text for the same template, in both languages."""
from __future__ import annotations

import jinja2
import pytest
from flask.templating import Environment

from webapp.web.i18n import translate, translate_plural


def stock(app):
    """Jinja's own: a plain Flask environment with the newstyle gettext of our catalog."""
    env = Environment(app, extensions=["jinja2.ext.i18n"], autoescape=True)
    env.install_gettext_callables(gettext=translate, ngettext=translate_plural, newstyle=True)
    return env


DOTS = "{{ d.players }}|{{ d.items is callable }}|{{ d.get('x') }}|{{ d.nothing is defined }}|{{ o.real }}"
WORDS = ('{{ _("Your turn.") }}|{{ _("Seat %(number)d", number=n) }}|'
         '{{ _("%(name)s\'s turn", name=who) }}|{{ ngettext("%(num)d card", "%(num)d cards", n) }}|'
         '{{ ngettext("Discard pile: %(card)s on top, %(num)d card", '
         '"Discard pile: %(card)s on top, %(num)d cards", n, card=who) }}|{{ _("") }}')


@pytest.mark.parametrize("lang", ["en", "fil"])
def test_words_and_dots_read_as_jinja_reads_them(app, lang):
    values = {"d": {"players": [1, 2], "items": "a key", "x": "<b>"}, "o": 3,
              "n": 2, "who": "<Ana & Ben>"}
    with app.test_request_context("/", headers={"Cookie": f"baraha-lang={lang}"}):
        ours = app.jinja_env.from_string(DOTS + "|" + WORDS).render(values)
        theirs = stock(app).from_string(DOTS + "|" + WORDS).render(values)
    assert ours == theirs
    assert "&lt;Ana &amp; Ben&gt;" in ours and "[1, 2]|True|&lt;b&gt;|False|3" in ours
    if lang == "fil":
        assert "Your turn." not in ours          # the catalog was read


def test_a_template_asked_again_is_the_same_and_missing_ones_still_fail(app):
    env = app.jinja_env
    assert env.get_template("table/_hand.html") is env.get_template("table/_hand.html")
    with pytest.raises(jinja2.TemplateNotFound):
        env.get_template("table/_nothing.html")
