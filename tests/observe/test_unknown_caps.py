"""An observer that meets a table capability it does not know (issue 40, case 8).

"Additions only" (PROTOCOL.md 3) protects the seats: a seat that does not know a binding
capability leaves it out of its ``ready.caps`` and the table plays the old way.  An
observer (a spectator, ``chkobba replay``) signs no ready: the seats of a table may all
play a capability it has never heard of.  One that played on without it read the seats'
new way as a violation: an auditor of before ``proof-apart/v1`` convicted seat 0 of
``missing_shuffle_proof`` on every table of today's peers.  Now an observer checks the
table's capabilities against those it implements once the readies settle them, and when
one it does not know may be in effect it refuses to judge: the verdict ``unsupported``
(code ``unknown_capability``, the capabilities named), nobody blamed, its own exit status
(4) for ``chkobba replay`` and ``chkobba watch``, in English and French.

In memory (sessions of the library, real signatures), a table of today whose genesis and
readies declare ``future/v9``; an older observer is simulated by the capabilities it
knows (``Observer(knows=...)``); the commands on a log file and against a fake host over
loopback."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
from pathlib import Path

import pytest
import trio
from support.audit import Played, play, said
from support.frames import watching_message
from support.net import REPO_ROOT, cli_command, cli_env

from chkobba_cli.main import main
from chkobba_cli.outputs.commentary import Commentary
from chkobba_cli.tui.parts.render import line_text
from chkobba_cli.tui.screens.replay import ReplayViewer
from chkobba_cli.tui.screens.watching import WatchView
from chkobba_cli.words.event_words import words
from chkobba_cli.words.i18n import Translator
from chkobba_p2p.game.rules import Ruleset
from chkobba_p2p.link.handshake import Lobby
from chkobba_p2p.observe.audit import EXIT_UNSUPPORTED, UNSUPPORTED, VALID, audit_bodies
from chkobba_p2p.observe.observer import Observer
from chkobba_p2p.observe.verdict import UNKNOWN_CAPABILITY, Verdict, unknown_capabilities
from chkobba_p2p.timeline import build_timeline
from chkobba_p2p.transcript.bodies import GameFault
from chkobba_p2p.transcript.caps import CAP_PROOF_APART, IMPLEMENTED_CAPABILITIES
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.codec import Identity

RULES = Ruleset(target=3)  # a short match
FUTURE = "future/v9"
#: An observer written before proof-apart/v1.
BEFORE_APART = tuple(c for c in IMPLEMENTED_CAPABILITIES if c != CAP_PROOF_APART)


class OldSession(Session):
    """A peer of before ``ready.caps`` (its ready has no ``caps`` field) that plays the
    genesis's capabilities it knows."""

    def ready_caps(self) -> tuple[str, ...] | None:
        return None

    def effective_caps(self) -> tuple[str, ...]:
        return tuple(c for c in self.table.caps if c in self.speaks)


class PreApartObserverSession(Session):
    """What an observer of before proof-apart/v1 did: it ignored the capability (unknown
    capabilities are ignored) and checked the entries the old way."""

    def effective_caps(self) -> tuple[str, ...]:
        return tuple(c for c in self.table.caps if c != CAP_PROOF_APART)


def future_match(n: int = 2, *, listed_by: tuple[int, ...] | None = None,
                 old_readies: bool = False, key: bytes = b"future", **kw: object) -> Played:
    """A whole match of ``n`` seats of today at a table whose genesis also declares
    ``future/v9``, listed in the ready of every seat of ``listed_by`` (default: all):
    the seats that speak it.  ``old_readies``: readies without ``caps`` (a log of before
    the field).  ``kw``: for :func:`support.audit.play`."""
    def derive(label: str) -> bytes:
        return hashlib.sha256(key + b"/" + label.encode()).digest()

    ids = [Identity.from_seed(derive(f"id{i}")) for i in range(n)]
    lobby = Lobby(ids[0], "hana", RULES, n, shuffle_proofs=False)
    for i in range(1, n):
        lobby.take_seat(ids[i].public, f"p{i}")
    lobby.game = derive("game")[:16]
    honest = lobby.table()
    table = dataclasses.replace(honest, caps=honest.caps + (FUTURE,))
    speaking = range(n) if listed_by is None else listed_by
    speaks = {i: IMPLEMENTED_CAPABILITIES + (FUTURE,) for i in speaking}
    cls = OldSession if old_readies else Session
    masters = [derive(f"master{i}") for i in range(n)]
    host, genesis = cls.create(ids[0], table, masters[0], speaks=speaks.get(0))
    ss = [host] + [cls.join(ids[i], wire.open_entry(genesis.body), ids[0].public, masters[i],
                            speaks=speaks.get(i)) for i in range(1, n)]
    return play(n, sessions=(ss, ids), **kw)  # type: ignore[arg-type]


def observe(bodies: list[bytes], **kw: object) -> tuple[Observer, Verdict, list[object]]:
    obs = Observer(**kw)  # type: ignore[arg-type]
    events = [ev for body in bodies for ev in obs.feed(body)]
    return obs, obs.end(), events


# ------------------------------------------------------------------------- the rule


@pytest.mark.parametrize(("genesis", "readies", "unknown"), [
    # Every ready lists it: it may be in effect.
    ((FUTURE,), [(FUTURE,), (FUTURE,)], (FUTURE,)),
    # A seat that does not list it keeps it out of effect (read as a binding one).
    ((FUTURE,), [(FUTURE,), ()], ()),
    ((FUTURE,), [(FUTURE,), None], ()),
    # A log of before ready.caps: the genesis alone decides.
    ((FUTURE,), [None, None], (FUTURE,)),
    # A ready that lists what the genesis lacks adds nothing.
    ((), [(FUTURE,), (FUTURE,)], ()),
    # What the observer knows is never unknown; each one named once, in order.
    (IMPLEMENTED_CAPABILITIES + ("b/v1", "a/v1", "b/v1"),
     [IMPLEMENTED_CAPABILITIES + ("a/v1", "b/v1")] * 3, ("b/v1", "a/v1")),
])
def test_an_unknown_capability_counts_when_it_may_be_in_effect(genesis, readies, unknown):
    assert unknown_capabilities(genesis, readies) == unknown


# --------------------------------------------------------------------------- issue 40.8


def test_an_observer_of_before_proof_apart_blamed_the_host_and_now_refuses_to_judge():
    """The reproduction: today's peers at a proof-apart/v1 table.  An observer that played
    on without the capability convicted seat 0 of missing_shuffle_proof at the first
    shuffle of hand 1 (the host did nothing wrong); an observer that does not know it now
    says it cannot audit the match, names the capability, and blames no one.  One that
    knows it audits the same entries clean."""
    played = play(2, rules=RULES, proofs=True, apart=True, key=b"apart", stop_after=30)
    bodies = played.sessions[0].bodies
    assert CAP_PROOF_APART in played.sessions[0].caps  # in effect at this table

    old = PreApartObserverSession.observe(wire.open_entry(bodies[0]))
    with pytest.raises(GameFault) as fault:
        for body in bodies[1:]:
            old.receive(wire.open_entry(body))
    assert fault.value.blamed_seat == 0 and "missing_shuffle_proof" in fault.value.detail

    obs, v, events = observe(bodies, knows=BEFORE_APART)
    assert v.verdict == UNSUPPORTED and v.code == UNKNOWN_CAPABILITY
    assert v.unknown_caps == (CAP_PROOF_APART,) and CAP_PROOF_APART in v.reason
    assert v.blamed is None and not obs.aborts and obs.claim_refuted is False
    assert v.entry == 2 and obs.stopped_at == 2  # the last ready settled the table
    assert [e for e in events if isinstance(e, Verdict)] == [v]
    assert "seat" not in v.reason and words(v, Translator("en"), names=["hana", "amel"]) == v.reason
    # An observer that knows the capability judges the same entries.
    assert observe(bodies)[1].verdict != UNSUPPORTED


def test_where_the_capability_is_not_in_effect_the_older_observer_still_judges():
    """A joiner without proof-apart/v1: the table plays the old way, which an observer of
    before the capability knows: it audits the match as usual."""
    played = play(2, rules=RULES, proofs=True, apart=False, key=b"not-apart", stop_after=30)
    assert CAP_PROOF_APART not in played.sessions[0].caps
    _, v, _ = observe(played.sessions[0].bodies, knows=BEFORE_APART)
    assert v.verdict != UNSUPPORTED and not v.unknown_caps


# ---------------------------------------------------------------- a future capability


@pytest.fixture(scope="module")
def future() -> Played:
    played = future_match(2, key=b"future-2")
    assert all(s.done is not None for s in played.sessions)  # the seats play it through
    return played


def test_a_table_of_a_capability_no_version_knows_yet_is_not_judged(future):
    bodies = future.sessions[1].bodies
    obs, v, _ = observe(bodies)
    assert (v.verdict, v.code, v.unknown_caps, v.blamed) == (
        UNSUPPORTED, UNKNOWN_CAPABILITY, (FUTURE,), None)
    assert FUTURE in v.reason and not obs.aborts and not obs.records
    report = audit_bodies(bodies, workers=0)
    assert report.verdict == UNSUPPORTED and report.exit_code == EXIT_UNSUPPORTED == 4
    assert report.blamed is None and not report.aborts and report.offending is None
    line = said(report)
    assert line.startswith("CANNOT AUDIT (unknown_capability): ") and FUTURE in line
    assert "blamed" not in line and "seat " not in line
    # Knowledge is the only difference: an observer that knows it finds the match valid.
    assert observe(bodies, knows=IMPLEMENTED_CAPABILITIES + (FUTURE,))[1].verdict == VALID


@pytest.mark.parametrize("n", [2, 3])
def test_a_capability_a_seat_leaves_out_of_its_ready_is_not_in_effect(n):
    """One seat does not speak it (its ready does not list it): not in effect, the table
    plays what this version knows, and the observer judges."""
    played = future_match(n, listed_by=tuple(range(n - 1)), key=b"future-some%d" % n)
    v = observe(played.sessions[0].bodies)[1]
    assert v.verdict == VALID, v.reason


def test_a_log_of_before_ready_caps_lets_the_genesis_alone_decide():
    played = future_match(2, old_readies=True, key=b"future-old")
    readies = [wire.open_entry(b) for b in played.sessions[0].bodies[1:3]]
    assert all("caps" not in e.fields for e in readies)
    v = observe(played.sessions[0].bodies)[1]
    assert v.verdict == UNSUPPORTED and v.unknown_caps == (FUTURE,)


def test_an_abort_at_an_unknown_table_blames_no_one():
    """Seat 1 stops the game blaming seat 0: at a table the observer cannot follow, it
    neither reports the claim's standing nor names anyone (was: INCOMPLETE, "seat 1 ended
    the game", the claim against seat 0 listed)."""
    played = future_match(2, key=b"future-abort", stop_after=20, abort_by=1)
    bodies = played.sessions[0].bodies
    assert wire.open_entry(bodies[-1]).kind == "abort"
    obs, v, _ = observe(bodies)
    assert v.verdict == UNSUPPORTED and v.blamed is None and v.by_seat is None
    assert not obs.aborts and v.standing is None
    report = audit_bodies(bodies, workers=0)
    assert not report.aborts and "seat 0" not in said(report)


# ------------------------------------------------------------------ the words, both ways


@pytest.mark.parametrize(("lang", "head", "why"), [
    ("en", "CANNOT AUDIT: ", "which this version does not know"),
    ("fr", "AUDIT IMPOSSIBLE : ", "que cette version ne connaît pas")])
def test_the_screens_say_it_cannot_audit_and_name_the_capability(future, lang, head, why):
    bodies = future.sessions[0].bodies
    # chkobba watch --text
    out = io.StringIO()
    narrator = Commentary(out, lang=lang)
    obs = Observer()
    for body in bodies:
        for ev in obs.feed(body):
            narrator(ev)
    text = out.getvalue()
    [line] = [ln for ln in text.splitlines() if ln.startswith(head)]
    assert FUTURE in line and why in line
    assert "blamed" not in text and "en faute :" not in text and "CHEAT" not in text
    # chkobba watch on a screen
    view = WatchView(lang=lang, pace=0)
    obs = Observer()
    for body in bodies:
        for ev in obs.feed(body):
            view.on_event(ev)
    end = "\n".join(line_text(x) for x in view.end_lines(300))
    assert head.strip() in end and FUTURE in end and "TRICHE" not in end, end
    # chkobba replay --view
    viewer = ReplayViewer(build_timeline(bodies), lang=lang)
    banner = " ".join(line_text(x).strip() for x in viewer.banner(300))
    assert banner.startswith(head) and FUTURE in banner and why in banner, banner
    assert viewer.tl.offending is None


def test_chkobba_replay_exits_4_and_says_why(future, tmp_path, capsys):
    log = future.write_log(tmp_path / "future.chklog")
    assert main(["replay", str(log)]) == EXIT_UNSUPPORTED
    out = capsys.readouterr().out
    [line] = [ln for ln in out.splitlines() if ln.startswith("CANNOT AUDIT")]
    assert FUTURE in line and "blamed" not in out and "cheat" not in out.lower()
    page = tmp_path / "future.html"
    assert main(["replay", str(log), "--quiet", "--html", str(page), "--lang", "fr"]) == 4
    html = page.read_text()
    assert "AUDIT IMPOSSIBLE" in html and FUTURE in html and "En faute" not in html
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    assert "4  cannot audit: the table plays a capability" in capsys.readouterr().out
    # History lists it for what it is, and counts it for nothing.
    assert main(["history", str(tmp_path), "--no-cache", "--lang", "en"]) == 0
    listed = capsys.readouterr().out
    assert "[CANNOT AUDIT]" in listed and "counts for nothing" in listed, listed
    t = Translator("fr")
    assert "AUDIT IMPOSSIBLE" in t("hi_unsupported")


async def _serve(nursery: trio.Nursery, handler) -> int:
    [listener] = await nursery.start(functools.partial(trio.serve_tcp, handler, 0,
                                                       host="127.0.0.1"))
    return listener.socket.getsockname()[1]


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "head"), [("fr", "AUDIT IMPOSSIBLE : "),
                                            ("en", "CANNOT AUDIT: ")])
async def test_chkobba_watch_exits_4_and_blames_no_one(future, tmp_path, lang, head):
    """A host (here a fake one over loopback, serving the table's signed entries) whose
    table plays future/v9: ``chkobba watch`` says it cannot audit the match, naming the
    capability, keeps its log copy, blames no one, and ends with exit status 4."""
    bodies = future.sessions[0].bodies
    host_key = future.identities[0].public

    async def fake_host(stream: trio.SocketStream) -> None:
        async with stream:
            await stream.send_all(wire.frame(wire.encode(
                {"t": "host", "versions": [1], "key": host_key, "name": "hana",
                 "caps": [], "nonce": bytes(32), "players": 2})))
            await stream.receive_some(4096)  # the spectator's watch
            await stream.send_all(wire.frame(wire.encode(watching_message(1, len(bodies)))))
            await stream.send_all(b"".join(wire.frame(b) for b in bodies))
        # and the connection closes: the match is over

    async with trio.open_nursery() as nursery:
        port = await _serve(nursery, fake_host)
        env = cli_env()
        env["CHKOBBA_DATA_DIR"] = str(tmp_path / "data")
        with trio.fail_after(60):
            r = await trio.run_process(
                cli_command("watch", f"127.0.0.1:{port}", "--text", "--lang", lang,
                            "--name", "amira", "--log", str(tmp_path / "w.chklog")),
                cwd=REPO_ROOT, env=env, capture_stdout=True, capture_stderr=True,
                check=False)
        nursery.cancel_scope.cancel()
    out = r.stdout.decode()
    assert r.returncode == EXIT_UNSUPPORTED, out + r.stderr.decode()
    [line] = [ln for ln in out.splitlines() if ln.startswith(head)]
    assert FUTURE in line
    assert "en faute :" not in out and "blamed" not in out and "CHEAT" not in out
    assert "TRICHE" not in out
    copy = Path(tmp_path / "w.chklog")
    assert audit_bodies(_bodies(copy), workers=0).verdict == UNSUPPORTED


def _bodies(path: Path) -> list[bytes]:
    from chkobba_p2p.wire.logfile import read_log
    return list(read_log(path).bodies)


def test_a_capability_name_from_the_genesis_is_shown_safely():
    """The names are the host's words: cut short and stripped of control characters."""
    hostile = "\x1b[2J" + "x" * 500
    v = Verdict(UNSUPPORTED, UNKNOWN_CAPABILITY, "r", unknown_caps=(hostile,))
    out = io.StringIO()
    Commentary(out, lang="en")(v)
    assert "\x1b" not in out.getvalue() and "x" * 41 not in out.getvalue()
