"""The pieces of the table a person reads, tested as pure functions: the help and its
glossary, the lobby's seats with known players, large cards, pure ASCII, the remembered
name."""

from __future__ import annotations

import io

from chkobba_cli.support import settings
from chkobba_cli.support.term import asciify, can_show_symbols, locale_name
from chkobba_cli.tui.parts.bigcards import big_card_row
from chkobba_cli.tui.parts.render import CardStyle, line_text
from chkobba_cli.tui.parts.trust import changed_seats, missing_names, seat_lines
from chkobba_cli.tui.screens.helpscreen import help_lines
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.known import KnownPlayers
from chkobba_p2p._shell.peer import Lobby
from chkobba_p2p.game.cards import cards
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.tablestate import TableState
from chkobba_p2p.wire.codec import fingerprint

A, B, C = bytes(range(32)), bytes(range(1, 33)), bytes(range(2, 34))


def _text(lines) -> str:
    return "\n".join(line_text(x) for x in lines)


def test_help_has_the_keys_and_the_glossary_in_both_languages():
    for lang, words in (("en", ("carta", "dinari", "barmila", "haya", "chkobba", "cutter",
                                "beji", "tunisian: target 11")),
                        ("fr", ("carta", "dinari", "barmila", "haya", "chkobba",
                                "coupeur", "beji", "tunisienne : objectif 11"))):
        text = _text(help_lines(Translator(lang), Ruleset(), lang, 76))
        for w in words:
            assert w in text, (lang, w, text)
    primiera = _text(help_lines(Translator("en"), Ruleset.preset("cardavia"), "en", 76))
    assert "primiera" in primiera and "barmila:" not in primiera


def _lobby_state(ready=(True, False, False)) -> TableState:
    st = TableState(my_fingerprint=fingerprint(A))
    return st.apply(Lobby((("amel", fingerprint(A)), ("sami", fingerprint(B)),
                           ("hana", fingerprint(C))), ready=ready, seating=3,
                          keys=(A, B, C)))


def test_lobby_seats_show_fingerprints_ready_marks_and_a_changed_key(tmp_path):
    known = KnownPlayers(tmp_path / "known_players")
    known.remember([("sami", B), ("hana", A)])  # hana had another key before
    st = _lobby_state()
    t = Translator("en")
    text = _text(seat_lines(st, t, known, 70, ready_check=True))
    for fp in map(fingerprint, (A, B, C)):
        assert fp in text
    assert "amel (you)" in text and "✓ ready" in text and "sami  not ready" in text
    assert "known" in text  # sami
    assert "WARNING: hana had another key before" in text and fingerprint(A) in text
    assert changed_seats(st, known) == [2]
    assert missing_names(st, t) == "sami and hana"
    assert missing_names(st, Translator("fr")) == "sami et hana"


def test_large_cards_fit_the_width_and_mark_the_selection():
    cs = CardStyle()
    rows = big_card_row(list(cards("7D 9C 1S")), cs, 80, selected=1, numbered=True)
    text = _text(rows)
    assert len(rows) == 6 and "7" in text and "♦" in text and "J" in text
    assert all(len(line_text(r)) <= 80 for r in rows)
    narrow = big_card_row(list(cards("7D 9C 1S 2H 3H")), cs, 20)
    assert len(narrow) == 5 * 3  # two cards a row
    plain = _text(big_card_row(list(cards("7D")), CardStyle(symbols=False), 40))
    assert plain.isascii() and "7D" not in plain and "D" in plain


def test_ascii_everywhere_and_the_locale_decides_by_itself():
    assert asciify("Vérifiez ♦ ▶ │ → … Œuvre") == "Verifiez D > | -> ... OEuvre"
    assert locale_name({"LANG": "C", "LC_CTYPE": "C.UTF-8"}) == "C"  # Python's coercion
    assert not can_show_symbols(io.StringIO(), {"LANG": "C"})
    assert not can_show_symbols(io.StringIO(), {"LC_ALL": "POSIX"})
    assert not can_show_symbols(io.StringIO(), {"LANG": "fr_FR.ISO-8859-1"})
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    assert can_show_symbols(utf8, {"LANG": "fr_FR.UTF-8"})
    latin = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    assert not can_show_symbols(latin, {"LANG": "fr_FR.UTF-8"})


def test_the_name_is_asked_once_and_remembered(monkeypatch, tmp_path):
    monkeypatch.setenv("CHKOBBA_CONFIG_DIR", str(tmp_path))  # a first run: nothing saved
    t = Translator("en")
    answers = iter(["", "x" * 40, "  Hana  "])
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(answers)

    assert settings.player_name(None, t, ask) == "Hana"
    assert len(asked) == 3  # two bad answers, then a good one
    assert settings.player_name(None, t, lambda p: "never asked") == "Hana"
    assert settings.player_name("Sami", t, ask) == "Sami"  # --name wins, for this run
    assert settings.load()["name"] == "Hana"


def test_every_command_has_a_description_and_every_option_a_help_text():
    import argparse

    from chkobba_cli.main import COMMANDS, build_parser

    for c in COMMANDS:
        sub = next(a for a in build_parser(c.name)._actions
                   if isinstance(a, argparse._SubParsersAction)).choices[c.name]
        assert sub.description, c.name
        bare = [b.option_strings or b.dest for b in sub._actions
                if b.help is None and b.dest != "help"]
        assert not bare, (c.name, bare)


def test_the_capture_summary_counts_diamonds_in_words_never_as_a_card():
    """"7♦" reads as the seven of diamonds (the haya): the summary says "7 diamonds"."""
    import re

    from support.audit import a_match

    from chkobba_cli.tui.model.view import TableView, card_style
    from chkobba_cli.tui.screens.table import _captures_line
    from chkobba_p2p.timeline import build_timeline

    played = a_match(2)
    tl = build_timeline(played.sessions[0].bodies)
    seen = set()
    for lang, word in (("en", "diamonds"), ("fr", "carreaux")):
        for f in tl.frames:
            view = TableView(f.state, Translator(lang), card_style(f.state, None, True))
            for side in range(2):
                n = f.state.captures(side).diamonds
                if n < 2:
                    continue
                text = line_text(_captures_line(view, side))
                assert f"{n} {word}" in text and not re.search(r"\d♦", text), text
                seen.add(lang)
    assert seen == {"en", "fr"}


def test_the_ready_check_asks_to_compare_every_group_of_each_key():
    """People compared the first and last groups (32 bits, days of one computer to
    match): the lobby's ready check asks for all four, in both languages."""
    from chkobba_cli.tui.model.view import TableView, card_style
    from chkobba_cli.tui.screens.lobby import lobby_lines

    st = _lobby_state(ready=(False, False, False))
    for lang, words in (("en", "all four groups"), ("fr", "les quatre groupes")):
        view = TableView(st, Translator(lang), card_style(st, None, True))
        text = _text(lobby_lines(view, 200, kind="host", asking=True))
        assert words in text, text
        assert all(fp in text for fp in map(fingerprint, (A, B, C)))
