"""Four players at 80 columns (issue 43, item 3), read off the whole screen as drawn
(:mod:`screenshot`): every name whole, or all cut the same way and never to one letter;
the whole order of play; the partner said on the table; and one order of the scores,
our side first, at every seat -- at 80x24 and 120x40, in English and French."""

from __future__ import annotations

import re

import pytest
from screenshot import screen_rows

from chkobba_cli.tui.app import TuiApp
from chkobba_cli.tui.parts.render import line_text
from chkobba_cli.tui.screens.dialogs import score_dialog_lines
from chkobba_p2p._shell.peer import HandScored, Lobby
from chkobba_p2p.game import rules as R
from chkobba_p2p.game.cards import DECK, cards
from chkobba_p2p.game.scoring import HandScore
from chkobba_p2p.transcript import events as S

WORDS = {"en": {"you": "you", "us": "us", "them": "them", "partner": "(partner)",
                "opponent": "(opponent)"},
         "fr": {"you": "vous", "us": "nous", "them": "eux", "partner": "(partenaire)",
                "opponent": "(adversaire)"}}



def _hand(players: int, turn: int) -> R.Hand:
    hands = [cards(x) for x in ("8D 2C 3H", "9S 9C 4S", "1S 2S 6C", "4C 5C 6S")][:players]
    table = cards("7H 3D 9H 1C 5S")
    placed = {c for h in hands for c in h} | set(table)
    rest = [c for c in DECK if c not in placed]
    stock = 9 if players == 3 else 12  # in whole deals of 3 cards a player
    taken = rest[:len(rest) - stock]
    return R.Hand.from_position(R.Ruleset(), players, dealer=players - 1, hands=hands,
                                table=table, turn=turn, stock=stock,
                                piles=[taken[i::players] for i in range(players)])


def _seated(names: tuple[str, ...], seat: int, lang: str, turn: int,
            totals: tuple[int, ...] | None = None) -> TuiApp:
    players = len(names)
    hand = _hand(players, turn)
    ui = TuiApp(kind="join", lang=lang, seat=seat, rules=hand.ruleset, players=players,
                turn_timeout=60)
    ids = tuple((n, f"{i:04x}-0000-0000-0000") for i, n in enumerate(names))
    st = ui.state.apply(Lobby(ids)).apply(S.HandStarted(1, players - 1))
    if totals is not None:  # the match's totals so far, as after a scored hand
        st = st.__class__(**{**st.__dict__, "totals": totals})
    ui.state = st.sync(hand.view(seat))
    return ui


# Names of people (the issue's), then long ones that must be cut: one length for all.
NAMES = [("dana", "carol", "alice", "bob"),
         ("Mohamed-Aziz", "Khadija Trabelsi", "sami", "Bob"),
         ("Mohamed-Aziz Ben Salah", "Khadija Trabelsi", "Yasmine Ben Amor", "Abdelkader")]


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("names", NAMES)
def test_every_seat_of_four_reads_the_whole_order_the_partner_and_its_score_first(
        app_session, size, lang, names):
    w = WORDS[lang]
    for seat in range(4):
        for turn in range(4):  # the seat to move carries the clock: the widest line
            ui = _seated(names, seat, lang, turn, totals=(3, 5))
            rows = screen_rows(ui, *size)
            text = "\n".join(rows)
            assert all(len(r) <= size[1] for r in rows)
            # One order of the scores, ours first: "us 5  them 3" at seats 1 and 3 too.
            ours, theirs = (3, 5) if seat % 2 == 0 else (5, 3)
            assert re.search(rf"\s{w['us']} {ours}  {w['them']} {theirs} ?$", rows[0]), rows[0]
            # The partner on the table, said to be one.
            partner = names[(seat + 2) % 4]
            assert w["partner"] in text
            # The whole order of play from us, the names whole or all cut alike.
            ring = [names[(seat + k) % 4] for k in range(1, 4)]
            order = next((r.split("│")[0] for r in rows if f"{w['you']} → " in r), None)
            assert order is not None, text
            # On a line of its own: "(opponent) you → … (opponent)" read as if we were
            # one of them.
            assert w["opponent"] not in order, order
            shown = [x.strip() for x in order.split("→")[1:4]]
            assert len(shown) == 3, order
            cut = {len(x) for x in shown if x.endswith("…")}
            assert len(cut) <= 1, order  # one length for every name cut
            for full, said in zip(ring, shown):
                if said.endswith("…"):
                    assert full.startswith(said[:-1]) and len(said) >= 6, order
                else:
                    assert said.startswith(full), order
            # Never a name cut to a letter or two ("b…", "ca…") anywhere on the table.
            # ("waiting for bob…" is a whole name: left out of the check.)
            rest = text
            for name in names:
                rest = rest.replace(f"{name}…", "")
            for m in re.finditer("…", rest):  # each cut: five characters of a name at least
                before = rest[:m.start()]
                assert any(before.endswith(n[:k]) for n in names
                           for k in range(5, len(n))), (before[-12:], text)
            if size[1] >= 120 and len(partner) <= 12:
                assert all(n in text for n in names if n != names[seat]), text
            if len(max(names, key=len)) <= 5:  # short names: never cut
                assert "…" not in order and f"{partner} {w['partner']}" in text, text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_score_dialog_and_the_events_read_our_side_first_at_every_seat(app_session, lang):
    w = WORDS[lang]
    names = ("dana", "carol", "alice", "bob")
    score = HandScore(4, cards=(22, 18), diamonds=(6, 4), sevens=(3, 1), sixes=(2, 2),
                      primiera=None, chkobbas=(1, 0),
                      categories={"carta": 0, "dinari": 0, "barmila": 0, "haya": 1})
    ev = HandScored(1, score, (3, 5))
    for seat in range(4):
        ui = _seated(names, seat, lang, 0)
        head = line_text(score_dialog_lines(ui.view, ev)[2]).split()
        assert head == [w["us"], w["them"]], head
        totals = line_text(score_dialog_lines(ui.view, ev)[-3]).split()[-2:]
        assert totals == (["3", "5"] if seat % 2 == 0 else ["5", "3"])
        ui.state = ui.state.apply(ev)
        ui._show_event(ev)
        said = " ".join(line_text(x) for x in ui.events.lines)
        mine, other = score.points[seat % 2], score.points[1 - seat % 2]
        assert f"{w['us']} {mine} - {w['them']} {other}" in said, said
        ui.score_queue.clear()  # Enter: the dialog closed
        ui.sheet = True  # s: the score sheet, ours first too
        sheet = " ".join(" ".join(r.split("│")[0] for r in screen_rows(ui)).split())
        want = f"→ {w['us']} 3, {w['them']} 5" if seat % 2 == 0 else \
            f"→ {w['us']} 5, {w['them']} 3"
        assert want in sheet and f": {w['us']} +{mine} (" in sheet, sheet


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
def test_at_three_and_two_players_our_total_comes_first_too(app_session, lang, size):
    w = WORDS[lang]
    for names in (("amel", "bot1", "bot2"), ("amel", "bot1")):
        n = len(names)
        totals = tuple(range(2, 2 + n))
        for seat in range(n):
            ui = _seated(names, seat, lang, 0, totals=totals)
            head = screen_rows(ui, *size)[0]
            others = [f"{names[(seat + k) % n]} {totals[(seat + k) % n]}" for k in range(1, n)]
            assert head.rstrip().endswith("  ".join([f"{w['you']} {totals[seat]}", *others])), \
                head
