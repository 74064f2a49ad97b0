"""``replay --view`` shows each seat's hand as live play shows one's own: in the order it
was dealt, the cards played taken out (issue 43, polish: it sorted them instead, so a
hand read differently in the replay than at the table)."""

from __future__ import annotations

import pytest
from support.audit import a_match

from chkobba_cli.tui.parts.render import line_text
from chkobba_cli.tui.screens.replay import ReplayViewer
from chkobba_p2p.game.rules import DealEvent
from chkobba_p2p.timeline import build_timeline


def _viewer(players: int) -> ReplayViewer:
    played = a_match(players)
    return ReplayViewer(build_timeline(played.sessions[0].bodies), lang="en")


@pytest.mark.parametrize("players", [2, 4])
def test_every_hand_shows_in_the_order_it_was_dealt(players):
    viewer = _viewer(players)
    unsorted = 0
    for i, frame in enumerate(viewer.tl.frames):
        if frame.held is None:
            continue
        viewer.at = i
        cs = viewer.view().cs
        for seat, held in enumerate(frame.held):
            shown = line_text(viewer.face_up(seat)).split()
            assert shown == [cs.label(c) for c in held], (i, seat)
            unsorted += list(held) != sorted(held)
    assert unsorted > 0  # the log has hands whose dealt order is not the sorted one


@pytest.mark.parametrize("players", [2, 4])
def test_after_a_deal_each_hand_reads_as_its_cards_were_dealt(players):
    viewer = _viewer(players)
    checked = 0
    deals: list[int] = []  # this hand's deals' frames, matched with its reveal at its end
    for i, frame in enumerate(viewer.tl.frames):
        if isinstance(frame.event, DealEvent) and frame.held is not None:
            deals.append(i)
        if frame.revealed is None:
            continue
        if len(deals) == len(frame.revealed.deals):
            for at, deal in zip(deals, frame.revealed.deals):
                viewer.at = at
                cs = viewer.view().cs
                for seat in range(players):
                    got = [c for who, c in zip(deal.recipients, deal.cards) if who == seat]
                    if not got:
                        continue
                    shown = line_text(viewer.face_up(seat)).split()
                    assert shown[-len(got):] == [cs.label(c) for c in got], (at, seat)
                    checked += 1
        deals = []
    assert checked > players
