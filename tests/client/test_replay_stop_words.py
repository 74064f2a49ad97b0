"""``chkobba replay``'s line on why a game stopped is for a person: the player's name,
the hand it happened in, no wire code and no signer's text with seat numbers; the log's
entry comes last, for whoever checks it, and ``--verbose`` adds the record as signed."""

from __future__ import annotations

from chkobba_cli.outputs.replay_text import describe
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link.handshake import Lobby as SeatLobby
from chkobba_p2p.observe.audit import audit_log
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.wire.codec import Identity
from chkobba_p2p.wire.logfile import TranscriptWriter


def _left_log(tmp_path):
    """A real, signed log in which the guest, amel, leaves once the table is set."""
    host, guest = Identity.generate(), Identity.generate()
    lobby = SeatLobby(host, "hana", Ruleset(), 2, shuffle_proofs=False)
    lobby.take_seat(guest.public, "amel")
    table = lobby.table()
    s0, genesis = Session.create(host, table)
    s1 = Session.join(guest, genesis, host.public)
    log = tmp_path / "left.chklog"
    w = TranscriptWriter(log)
    w.write_header(game=table.game, seat=0, key=host.public, name="hana", host="hana")
    w.append(genesis.body)
    ready = s0.next_entry()
    assert ready is not None
    s1.receive(ready)
    w.append(ready.body)
    abort = s1.leave("the player left the game")
    assert abort is not None
    s0.receive(abort)
    w.append(abort.body)
    w.close()
    return log


def test_a_player_who_left_is_said_in_words(tmp_path):
    report = audit_log(str(_left_log(tmp_path)))
    assert len(report.aborts) == 1
    text = "\n".join(describe(report, symbols=False))
    line = next(ln for ln in text.splitlines() if "amel" in ln and "left" in ln)
    assert line == "amel left the game before the first hand (the log's entry 2)."
    for jargon in ("peer_left", "entry #", "was stopped", "seat 1"):
        assert jargon not in text
    verbose = "\n".join(describe(report, symbols=False, verbose=True))
    assert "peer_left: the player left the game" in verbose
