"""The observer's own findings (a file that stops, tears or is damaged, a genesis it
refuses...) are a code and facts in the library (``Verdict.finding``, ``FINDINGS``); the
client words every one in English and French, and a finding added without words fails
here."""

from __future__ import annotations

import pytest

from chkobba_cli.words.event_words import words
from chkobba_cli.words.i18n import MESSAGES, Translator
from chkobba_p2p.observe.audit import AuditResult
from chkobba_p2p.observe.verdict import FINDINGS, INCOMPLETE, Verdict

_FACTS: dict[str, str | int] = {"last": 41, "phase": "playing", "tail": "a frame of 9 GB",
                                "detail": "bad\x1b[2J field", "seat": 1, "signer": 0}


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
    if "phase" in FINDINGS[finding]:  # the phase in the reader's words, no state's name
        assert "during play" in en and "pendant le jeu" in fr, (en, fr)
        assert "playing" not in en and "transcript" not in en, en


def test_a_finding_survives_the_history_cache():
    v = Verdict(INCOMPLETE, "truncated", "x", finding="torn_after", facts=(("last", 7),))
    r = AuditResult(INCOMPLETE, "truncated", 8, reason="x", outcome=v)
    back = AuditResult.from_json(r.to_json())
    assert back == r and back.outcome is not None and back.outcome.facts == (("last", 7),)
    assert "#7" in words(back, Translator("en"))
