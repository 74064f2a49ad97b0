"""The observer's own findings (a file that stops, tears or is damaged, a genesis it
refuses...) are a code and facts in the library (``Verdict.finding``, ``FINDINGS``); the
client words every one in English and French, and a finding added without words fails
here."""

from __future__ import annotations

import pytest
from support.audit import play

from chkobba_cli.words.event_words import words
from chkobba_cli.words.i18n import MESSAGES, Translator
from chkobba_p2p.observe.audit import AuditResult
from chkobba_p2p.observe.observer import Observer
from chkobba_p2p.observe.verdict import FINDINGS, INCOMPLETE, INVALID, Verdict
from chkobba_p2p.wire import codec as wire

_FACTS: dict[str, str | int] = {"last": 41, "phase": "playing", "tail": "a frame of 9 GB",
                                "detail": "bad\x1b[2J field", "seat": 1, "signer": 0,
                                "error": "KeyError"}


@pytest.mark.parametrize("finding", sorted(FINDINGS))
def test_every_finding_has_words_in_both_languages_with_its_facts(finding):
    assert all(MESSAGES[f"of_{finding}"]), finding
    facts = tuple((k, _FACTS[k]) for k in FINDINGS[finding])
    v = Verdict(INCOMPLETE, "unfinished", "the library's English", finding=finding,
                facts=facts)
    en, fr = words(v, Translator("en")), words(v, Translator("fr"))
    assert en != fr and "the library's English" not in en + fr, (en, fr)
    for text in (en, fr):
        assert "{" not in text and "of_" not in text and "\x1b" not in text, text
        if "last" in FINDINGS[finding]:
            assert "41" in text, text
        if "detail" in FINDINGS[finding]:  # a check's own words, made safe
            assert "bad␛[2J field" in text, text
        if "error" in FINDINGS[finding]:  # an exception's class: a name, not a sentence
            assert "KeyError" in text, text
    if "phase" in FINDINGS[finding]:  # the phase in the reader's words, no state's name
        assert "during play" in en and "pendant le jeu" in fr, (en, fr)
        assert "playing" not in en and "transcript" not in en, en


def test_a_finding_survives_the_history_cache():
    v = Verdict(INCOMPLETE, "truncated", "x", finding="torn_after", facts=(("last", 7),))
    r = AuditResult(INCOMPLETE, "truncated", 8, reason="x", outcome=v)
    back = AuditResult.from_json(r.to_json())
    assert back == r and back.outcome is not None and back.outcome.facts == (("last", 7),)
    assert "#7" in words(back, Translator("en"))


def test_an_entry_the_observer_cannot_process_is_named_by_its_error_not_its_english():
    """An exception the observer meets (here: an opened entry whose seat is no number,
    which :func:`~chkobba_p2p.wire.codec.open_entry` would have refused) is a finding
    whose data is the exception's class; its message, a developer's English, stays in
    the verdict's reason and never reaches a reader, in either language."""
    p = play(2, stop_after=8, abort_by=1)
    bodies = p.sessions[0].bodies
    obs = Observer()
    for body in bodies[:3]:
        assert not any(isinstance(ev, Verdict) for ev in obs.feed(body))
    e = wire.open_entry(bodies[3])
    [*_, v] = obs.feed(wire.Entry(e.body, e.payload, e.signature, {**e.fields, "seat": "x"}))
    assert isinstance(v, Verdict) and v.verdict == INVALID and v.entry == 3
    assert v.finding == "cannot_process" and v.facts == (("error", "ValueError"),)
    assert "invalid literal" in v.reason  # the developer's detail, for logs and JSON
    en, fr = words(v, Translator("en")), words(v, Translator("fr"))
    assert en == "the observer cannot process this entry (an internal error: ValueError)"
    assert fr == "l'observateur ne peut pas traiter cette entrée (une erreur interne : " \
        "ValueError)"
