"""A spectator whose host's connection ends during the match (issue 43, the newcomer
walk at 9c55980): the host had merely stepped away, the players waited for it, and the
spectator read "the host closed the connection", as if the host had ended the table.
The stream's end does not say who closed it; the spectator now reads that the connection
to the host closed and how long the players wait for the host (its time away left, as
the spectator's copy of the clocks counts it).  Read off the whole watch screen as drawn,
at 80x24 and 120x40, in English and French, at 2, 3 and 4 players."""

from __future__ import annotations

import pytest
from screenshot import end_box
from test_watch_end_box import played, screen_rows_checked  # noqa: F401 (fixture)

from chkobba_cli.tui.screens.watching import WatchView
from chkobba_p2p._shell.watch import WatchOutcome
from chkobba_p2p.observe.observer import Observer

# On test_watch_end_box's worker (pytest-xdist's loadgroup): its matches, played once.
pytestmark = pytest.mark.xdist_group("test_watch_end_box")

SAID = {"en": "the connection to the host closed during the match; the players wait up to "
              "4:35 for the host to come back",
        "fr": "la connexion avec l'hôte s'est fermée pendant la partie ; les joueurs "
              "attendent le retour de l'hôte jusqu'à 4:35"}
WRONG = {"en": "host closed the connection", "fr": "l'hôte a fermé"}


@pytest.mark.parametrize("size", [(24, 80), (40, 120)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_spectator_is_told_the_players_wait_for_the_host(played, size, lang,  # noqa: F811
                                                             players):
    view = WatchView(lang=lang, pace=0, address="127.0.0.1:7777", name="amira")
    obs = Observer()
    for body in played[players].sessions[0].bodies[:20]:  # the match under way
        for ev in obs.feed(body):
            view.on_event(ev)
    assert view.state.started and not view.state.over
    verdict = obs.end()
    view.on_event(verdict)
    view.finished(WatchOutcome(verdict, None, stop_reason="host_closed",
                               stop_data={"host_allowance": "275"}))
    box = end_box(screen_rows_checked(view, size))
    flat = " ".join(" ".join(box).split())
    assert SAID[lang] in flat, box
    assert WRONG[lang] not in flat, box
