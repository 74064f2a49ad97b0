"""Playing again: once the match is over, a joining seat's answer (accept or decline)
reaches the host before the connections close (PROTOCOL.md 17), as a
:class:`RematchAnswer` event the host's client can show.  In memory on trio's mock clock
(chkobba_p2p.testing), and on real loopback TCP."""

from __future__ import annotations

import pytest
import trio
from support.net import host_config, join_config

from chkobba_p2p._shell.net import ClientPeer, HostPeer
from chkobba_p2p._shell.peer import Outcome, RematchAnswer, RematchOffered
from chkobba_p2p.testing import InMemoryTable, RecordingController


class Answering(RecordingController):
    """A bot whose person answers ``answer`` when asked to play again."""

    def __init__(self, seat: int, answer: bool | None) -> None:
        super().__init__(seat)
        self.answer = answer
        self.asked: list[Outcome] = []
        self.answers: list[RematchAnswer] = []

    def on_event(self, event: object) -> None:
        if isinstance(event, RematchAnswer):
            self.answers.append(event)

    async def after_match(self, outcome: Outcome) -> bool | None:
        self.asked.append(outcome)
        return self.answer


class HostWaitingForAnswers(RecordingController):
    """The host's person stays on the end screen until one answer came."""

    def __init__(self) -> None:
        super().__init__(0)
        self.answers: list[RematchAnswer] = []
        self.answered = trio.Event()

    def on_event(self, event: object) -> None:
        if isinstance(event, RematchAnswer):
            self.answers.append(event)
            self.answered.set()

    async def after_match(self, outcome: Outcome) -> bool | None:
        with trio.fail_after(10):
            await self.answered.wait()
        return False


@pytest.mark.parametrize("accept", [False, True])
async def test_a_joiners_answer_to_a_rematch_reaches_the_host(
        tmp_path, accept, autojump_clock):
    host_ctl, guest_ctl = HostWaitingForAnswers(), Answering(1, accept)
    table = InMemoryTable(tmp_path, controllers=[host_ctl, guest_ctl])
    out = dict(zip(("host", "guest"), await table.run(), strict=True))
    assert out["host"].completed and out["guest"].completed
    assert host_ctl.answers == [RematchAnswer(1, accept)]
    assert len(guest_ctl.asked) == 1 and guest_ctl.asked[0].completed
    if accept:  # it waited for the host's own answer (its person declined)
        assert guest_ctl.answers == [RematchAnswer(0, False)]


class HostOffering(HostWaitingForAnswers):
    """The host's person presses r at once (offer_rematch), then waits for an answer."""

    def __init__(self) -> None:
        super().__init__()
        self.offered: list[bool] = []

    async def after_match(self, outcome: Outcome) -> bool | None:
        self.offered += [self.offer_rematch(), self.offer_rematch()]
        await super().after_match(outcome)
        return False


class AnsweringTheOffer(Answering):
    """A joiner's person who answers only once the host said it wants a rematch."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat, True)
        self.events: list[object] = []
        self.offer = trio.Event()

    def on_event(self, event: object) -> None:
        super().on_event(event)
        if isinstance(event, RematchOffered | RematchAnswer):
            self.events.append(event)
        if isinstance(event, RematchOffered):
            self.offer.set()

    async def after_match(self, outcome: Outcome) -> bool | None:
        with trio.fail_after(10):
            await self.offer.wait()
        return await super().after_match(outcome)


async def test_the_hosts_offer_reaches_the_joiner_before_it_answers(tmp_path, autojump_clock):
    """Issue 43, item 11, through the shells: the host's controller offers while its
    after_match is pending (once: a second call is False); the joiner's controller
    hears it, then answers; the host's own answer still comes last."""
    host_ctl, guest_ctl = HostOffering(), AnsweringTheOffer(1)
    assert not host_ctl.offer_rematch()  # no running host yet
    table = InMemoryTable(tmp_path, controllers=[host_ctl, guest_ctl])
    out = dict(zip(("host", "guest"), await table.run(), strict=True))
    assert out["host"].completed and out["guest"].completed
    assert host_ctl.offered == [True, False]
    assert host_ctl.answers == [RematchAnswer(1, True)]
    assert guest_ctl.events == [RematchOffered(0), RematchAnswer(0, False)]


@pytest.mark.slow
async def test_no_answer_by_default_and_the_host_does_not_wait(tmp_path):
    """A controller that does not answer (a bot, an older client) changes nothing: the
    host reports no answer and the match ends as before."""
    host_ctl, guest_ctl = Answering(0, None), Answering(1, None)
    seen: list[object] = []
    host_ctl.on_event = seen.append  # type: ignore[method-assign]
    out = {}
    async with trio.open_nursery() as nursery:
        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await HostPeer(host_config(tmp_path), host_ctl).run(task_status)

        port = await nursery.start(run_host)
        with trio.fail_after(120):
            out["guest"] = await ClientPeer(join_config(tmp_path, port, "amel"),
                                            guest_ctl).run()
    assert out["host"].completed and out["guest"].completed
    assert len(host_ctl.asked) == 1 and len(guest_ctl.asked) == 1
    assert not any(isinstance(e, RematchAnswer) for e in seen)


@pytest.mark.slow
async def test_an_answer_before_the_end_or_off_is_ignored(tmp_path):
    """A ``rematch`` during the game, or one whose ``accept`` is not a bool, is ignored
    (no event, the connection stays); the answer after the end counts."""
    from support.net import GatedBot

    class Twice(GatedBot):
        async def after_match(self, outcome):
            return False

    host_ctl, gate = HostWaitingForAnswers(), Twice(2)
    out = {}
    async with trio.open_nursery() as nursery:
        host = HostPeer(host_config(tmp_path), host_ctl)

        async def run_host(task_status=trio.TASK_STATUS_IGNORED):
            out["host"] = await host.run(task_status)

        port = await nursery.start(run_host)
        peer = ClientPeer(join_config(tmp_path, port, "amel"), gate)

        async def run_guest():
            out["guest"] = await peer.run()

        nursery.start_soon(run_guest)
        await gate.holding.wait()
        for msg in ({"t": "rematch", "accept": True}, {"t": "rematch", "accept": 1},
                    {"t": "rematch"}):
            peer.link.send_msg(msg)
        gate.release.set()
    assert out["host"].completed and out["guest"].completed
    assert host_ctl.answers == [RematchAnswer(1, False)]
    assert host.rematch_answers == {1: False}


async def test_a_joiner_gone_without_an_answer_is_reported_while_the_host_decides(
        tmp_path, autojump_clock):
    """A joining peer that answers nothing (a bot, an older client) closes its connection
    once the match is over: the host, still deciding, hears that this seat will not be
    at a new table (``left``), rather than waiting for an answer that cannot come."""
    host_ctl, guest_ctl = HostWaitingForAnswers(), Answering(1, None)
    table = InMemoryTable(tmp_path, controllers=[host_ctl, guest_ctl])
    out = dict(zip(("host", "guest"), await table.run(), strict=True))
    assert out["host"].completed and out["guest"].completed
    assert host_ctl.answers == [RematchAnswer(1, False, left=True)]
    assert guest_ctl.answers == []  # it asked nothing, so it waited for nothing


@pytest.mark.slow
async def test_a_rematch_after_a_plain_address_join_refuses_another_key(tmp_path):
    """The first join named the host by address only (no key pinned).  The rematch is
    pinned to the key of the host just played: what listens at that address next with
    another key is refused, before anything is written; the same host is joined."""
    import dataclasses

    from chkobba_cli.commands.join import REMATCH_WAIT, rematch_config
    from chkobba_p2p._shell.peer import BotController, OutcomeError

    first = join_config(tmp_path, 0, "amel")
    async with trio.open_nursery() as nursery:
        host = HostPeer(host_config(tmp_path), BotController("greedy", 0))
        port = await nursery.start(host.run)
        first = dataclasses.replace(first, address=f"127.0.0.1:{port}")
        assert first.host_fingerprint is None
        with trio.fail_after(120):
            outcome = await ClientPeer(first, BotController("greedy", 1)).run()
    assert outcome.completed
    again = rematch_config(first, outcome, tmp_path / "again.chklog")
    assert again.host_fingerprint == host.identity.fingerprint
    assert again.connect_retry == REMATCH_WAIT and again.address == first.address
    (tmp_path / "other").mkdir()
    async with trio.open_nursery() as nursery:
        other = HostPeer(dataclasses.replace(host_config(tmp_path / "other"), port=port),
                         BotController("greedy", 0))  # another key at the same address
        await nursery.start(other.run)
        with trio.fail_after(60):
            refused = await ClientPeer(dataclasses.replace(again, connect_retry=0),
                                       BotController("greedy", 1)).run()
        nursery.cancel_scope.cancel()
    assert refused.error_code == OutcomeError.HOST_KEY_MISMATCH, refused
    assert not (tmp_path / "again.chklog").exists()
