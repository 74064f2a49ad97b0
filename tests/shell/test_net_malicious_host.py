"""A dishonest host is caught: it cannot alter, drop or fork what it relays.

The host here is the library's own :class:`HostPeer` whose table core has one method
overridden to cheat (an adversary, not a mock): everything else is the real thing, with
real peers that check every entry, in memory on trio's mock clock
(:class:`chkobba_p2p.testing.InMemoryTable`).
"""

from __future__ import annotations

from chkobba_p2p._shell.net import HostPeer
from chkobba_p2p._shell.peer import Outcome
from chkobba_p2p.link.host import HostTable
from chkobba_p2p.link.seat import Send
from chkobba_p2p.testing import InMemoryTable
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import ErrorCode


async def _four(tmp_path, host_class: type[HostPeer]) -> tuple[HostPeer, Outcome,
                                                              list[Outcome]]:
    table = InMemoryTable(tmp_path, players=4, host_class=host_class)
    host_out, *outs = await table.run()
    return table.host, host_out, outs


class AlteringTable(HostTable):
    """Flips one byte of the 40th entry it relays, to one peer only."""

    relayed = 0

    def _relay(self, from_seat: int, body: bytes, index: int) -> None:
        for seat, link in self.links.items():
            if seat == from_seat:
                continue
            self.relayed += 1
            if self.relayed == 40:
                entry = wire.open_entry(body)
                payload = bytearray(entry.payload)
                payload[-1] ^= 0x01
                body = wire.encode({"t": "sig", "p": bytes(payload), "s": entry.signature})
                self.victim = seat
            self.out.append(Send(link, body))


class AlteringHost(HostPeer):
    table_class = AlteringTable


class ForkingTable(HostTable):
    """Signs two different versions of one of its own entries (same seq, same prev) and
    shows the second one to one peer only: two histories."""

    turns = 0

    def _entry_out(self, body: bytes) -> None:
        entry = wire.open_entry(body)
        if entry.kind == "turn":
            self.turns += 1
        if self.turns != 12 or entry.kind != "turn":
            super()._entry_out(body)
            return
        fields = dict(entry.fields)
        fields.pop("g"), fields.pop("seat"), fields.pop("n"), fields.pop("prev")
        kind = fields.pop("k")
        fields["note"] = "for your eyes only"  # unknown fields are ignored: a valid entry
        twin = wire.make_entry(self.identity, game=entry.game, seat=0, seq=entry.seq,
                               prev=entry.prev, kind=kind, body=fields)
        self.victim = 3  # not the next to speak: it will see the next entry's prev
        for seat, link in self.links.items():
            self.out.append(Send(link, twin.body if seat == self.victim else body))


class ForkingHost(HostPeer):
    table_class = ForkingTable


async def test_host_altering_a_relayed_entry_is_caught(tmp_path, autojump_clock):
    host, host_out, outs = await _four(tmp_path, AlteringHost)
    assert not host_out.completed and not any(o.completed for o in outs)
    victim = next(o for o in outs if o.seat == host.core.victim)
    # The victim saw a signature that does not verify and blames the host (seat 0).
    assert victim.aborted is not None
    assert victim.aborted.by_seat == victim.seat
    assert victim.aborted.code is ErrorCode.BAD_SIGNATURE
    assert victim.aborted.blamed_seat == 0
    # Everyone else ends the game on the victim's signed blame.
    for o in [host_out, *outs]:
        assert o.aborted is not None and o.aborted.blamed_seat == 0


async def test_host_showing_two_histories_is_caught(tmp_path, autojump_clock):
    host, host_out, outs = await _four(tmp_path, ForkingHost)
    assert not host_out.completed and not any(o.completed for o in outs)
    victim = next(o for o in outs if o.seat == host.core.victim)
    # The victim accepted the twin; the next entry, chained on the real one, no longer
    # extends its transcript.
    assert victim.aborted is not None
    assert victim.aborted.by_seat == victim.seat
    assert victim.aborted.code is ErrorCode.BAD_CHAIN
    assert victim.aborted.blamed_seat == 0
    for o in [host_out, *outs]:
        assert o.aborted is not None and o.aborted.blamed_seat == 0
