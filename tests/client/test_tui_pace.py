"""The display's pace: another player's move is held on screen before the table changes,
the score sheet waits for a key or its time, questions wait for the picture.  trio's
mock clock stands in for the seconds (nothing here sleeps for real)."""

from __future__ import annotations

import time

import trio
import trio.testing

from chkobba_cli.tui.model.pace import Pacer
from chkobba_p2p._shell.peer import Chat
from chkobba_p2p.game import rules as R
from chkobba_p2p.game.cards import Card
from chkobba_p2p.transcript.events import HandScored, HandStarted, MatchOver

ME, OTHER = 0, 1


def _play(seat: int, card: int = 5) -> R.PlayEvent:
    return R.PlayEvent(seat, Card(card), frozenset(), False)


def _scored() -> HandScored:
    return HandScored(1, None, (3, 2))  # type: ignore[arg-type]


async def test_another_players_move_is_held_and_ours_is_not(autojump_clock):
    shown: list[tuple[float, object]] = []
    pacer = Pacer(lambda e: shown.append((trio.current_time(), e)), lambda: ME, pace=0.7)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(pacer.run)
        await trio.testing.wait_all_tasks_blocked()
        t0 = trio.current_time()
        mine, theirs, chat = _play(ME, 1), _play(OTHER, 2), Chat(OTHER, "hi")
        pacer.push(mine)
        pacer.push(theirs)
        pacer.push(chat)  # talk is not held behind the cards
        await trio.sleep(0.1)
        assert {id(e) for _, e in shown} == {id(mine), id(chat)}
        assert pacer.showing == theirs  # highlighted on the table meanwhile
        await pacer.drained()
        assert shown[-1][1] == theirs and shown[-1][0] - t0 >= 0.7
        assert pacer.showing is None
        nursery.cancel_scope.cancel()


async def test_the_score_sheet_waits_for_a_key_or_its_time(autojump_clock):
    shown: list[object] = []
    pacer = Pacer(shown.append, lambda: ME, pace=0.5, score_wait=8)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(pacer.run)
        await trio.testing.wait_all_tasks_blocked()
        nxt = HandStarted(2, OTHER)
        pacer.push(_scored())
        pacer.push(nxt)
        await trio.sleep(3)
        assert pacer.scoring and nxt not in shown  # the next hand waits behind the sheet
        # It closes by itself: the screen counts down to it (its line said only
        # "Enter: continue", and a player saw it close without a key).
        assert pacer.closes_at is not None
        assert 0 < pacer.closes_at - time.monotonic() <= 8
        pacer.dismiss()
        await pacer.drained()
        assert shown[-1] == nxt
        # Without a key, the sheet goes after score_wait seconds.
        t0 = trio.current_time()
        pacer.push(_scored())
        pacer.push(nxt)
        await pacer.drained()
        assert trio.current_time() - t0 >= 8
        nursery.cancel_scope.cancel()


async def test_the_sheet_of_the_last_hand_waits_for_its_key(autojump_clock):
    # The end screen follows it, and there Enter quits (and answers no to a rematch):
    # had the sheet closed by itself, the Enter meant for it would land there.
    shown: list[object] = []
    pacer = Pacer(shown.append, lambda: ME, pace=0.5, score_wait=8, keep_last=True)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(pacer.run)
        await trio.testing.wait_all_tasks_blocked()
        over = MatchOver(0, (3, 2))
        pacer.push(_scored())
        pacer.push(over)
        await trio.sleep(600)
        assert pacer.scoring and over not in shown
        assert pacer.closes_at is None  # this one waits for its key: no countdown
        pacer.dismiss()
        await pacer.drained()
        assert shown[-1] == over
        # Another hand's sheet still goes after its time.
        t0 = trio.current_time()
        pacer.push(_scored())
        pacer.push(HandStarted(2, OTHER))
        await pacer.drained()
        assert trio.current_time() - t0 < 9
        nursery.cancel_scope.cancel()


async def test_without_the_task_events_go_straight_to_the_screen():
    shown: list[object] = []
    pacer = Pacer(shown.append, lambda: ME)
    pacer.push(_play(OTHER))
    assert len(shown) == 1
    await pacer.drained()


async def test_a_pace_of_zero_holds_nothing(autojump_clock):
    shown: list[object] = []
    pacer = Pacer(shown.append, lambda: ME, pace=0)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(pacer.run)
        await trio.testing.wait_all_tasks_blocked()
        t0 = trio.current_time()
        for _ in range(3):
            pacer.push(_play(OTHER))
        await pacer.drained()
        assert len(shown) == 3 and trio.current_time() == t0
        nursery.cancel_scope.cancel()


def test_the_score_sheet_s_key_line_counts_down_when_it_closes_by_itself():
    from chkobba_cli.tui.screens.dialogs import score_continue
    from chkobba_cli.words.i18n import Translator

    en, fr = Translator("en"), Translator("fr")
    assert score_continue(en, None) == "Enter: continue"
    assert score_continue(en, 5.2) == "Enter: continue (it goes on by itself in 6 s)"
    assert score_continue(en, 0.01) == "Enter: continue (it goes on by itself in 1 s)"
    assert score_continue(fr, 3.0) == "Entrée : continuer (suite automatique dans 3 s)"
