"""``host --secret`` and ``join CODE`` (PROTOCOL.md 5.5; issue 42 item 5): every join
code a host with a secret shows carries it (the lobby's, the headless lines, the router's
and the onion's, all made by ``reach.join_code``), a spectator's code never does, and a
joiner refused for the secret is told what to do, in English and French."""

from __future__ import annotations

import pytest

from chkobba_cli.main import build_parser
from chkobba_cli.outputs.headless import Narrator
from chkobba_cli.support import reach
from chkobba_cli.words.event_words import explain_error
from chkobba_cli.words.i18n import Translator
from chkobba_p2p.address import Address
from chkobba_p2p.wire.codec import ErrorCode

FP = "2935-c4f7-816c-a26c"
SECRET = "k7m2-x4qa-b3cd-e5fg"


@pytest.fixture
def hosted():
    reach.host_secret(SECRET)
    yield
    reach.host_secret(None)


def test_every_code_of_a_table_with_a_secret_carries_it(hosted):
    assert reach.join_code("192.168.1.20", 7777, FP) == f"192.168.1.20:7777#{FP}+{SECRET}"
    assert reach.join_code("[fd00::5]", 7777, FP) == f"[fd00::5]:7777#{FP}+{SECRET}"
    assert reach.address_lines("192.168.1.20", 7777, FP)[0].endswith(f"#{FP}+{SECRET}")
    assert reach.join_code("192.168.1.20", 7777, None) == "192.168.1.20:7777"  # watch
    onion = "a" * 56 + ".onion"
    narrator = Narrator()
    narrator.onion_code = f"{onion}:7777#{FP}"  # as the event's words make it
    assert narrator.onion_code == f"{onion}:7777#{FP}+{SECRET}"
    parsed = Address.parse(reach.join_code("192.168.1.20", 7777, FP))
    assert (parsed.fingerprint, parsed.secret) == (FP, SECRET)


def test_without_a_secret_the_codes_are_as_before():
    assert reach.join_code("192.168.1.20", 7777, FP) == f"192.168.1.20:7777#{FP}"


def test_the_options():
    assert build_parser("host").parse_args(["host", "--secret"]).secret is True
    assert build_parser("host").parse_args(["host"]).secret is False
    join = build_parser("join")
    assert join.parse_args(["join", "--secret", "K7M2X4QAB3CDE5FG"]).secret == SECRET
    assert join.parse_args(["join"]).secret is None
    with pytest.raises(SystemExit):
        join.parse_args(["join", "--secret", "not-a-secret"])


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_joiner_refused_for_the_secret_is_told_what_to_do(lang):
    t = Translator(lang)
    def refused(code: ErrorCode) -> str:  # a refusal of our hello, as the library gives it
        name = code.name.lower()
        return explain_error("refused", name, {"code": name, "number": int(code),
                                               "host_text": "x"}, t)

    missing = refused(ErrorCode.SECRET_REQUIRED)
    wrong = refused(ErrorCode.SECRET_WRONG)
    assert missing == t("err_secret_required") and wrong == t("err_secret_wrong")
    assert "+SECRET" in missing
    assert ("again" in wrong) if lang == "en" else ("redemandez" in wrong)
    # The French sentence stopped at "et rejoignez avec" (with what?): both end on the
    # code to join with.
    assert missing.endswith("join with it" if lang == "en" else "rejoignez avec ce code")

