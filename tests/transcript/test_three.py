"""Three at the table, each for themselves (issue 23): whole 3-player matches in process,
in memory (a host and two joiners on trio's mock clock) and between real processes over
loopback, with and without shuffle proofs, with the cut-and-draw opening, a redeal, a
resignation (the match stops, nobody wins), a resume after SIGKILL; every log audits
VALID with the same result, and its records replay through the rules engine (the model
``simulate`` plays) to the very same records."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path

import pytest
from support.audit import play, played_once, said, verdict_said
from support.net import REPO_ROOT, cli_command, start_host
from support.net import process_env as _env
from support.net import start_bot as _bot
from support.tiers import slow_when

from chkobba_cli.words.event_words import words
from chkobba_cli.words.i18n import Translator
from chkobba_p2p._shell.peer import RematchAnswer
from chkobba_p2p.errors import LocalError
from chkobba_p2p.game.cards import card
from chkobba_p2p.game.record import read_records, replay_records
from chkobba_p2p.game.rules import PRESETS, Opening, Ruleset, score_piles
from chkobba_p2p.game.seating import Seating
from chkobba_p2p.link.handshake import Lobby
from chkobba_p2p.observe.audit import VALID, audit_bodies, audit_log
from chkobba_p2p.testing import InMemoryTable, RecordingController
from chkobba_p2p.transcript.session import Session
from chkobba_p2p.transcript.table import SeatInfo, TableInfo
from chkobba_p2p.wire.codec import Entry, ErrorCode, Identity, open_entry
from chkobba_p2p.wire.logfile import LogUnreadable, TranscriptWriter, read_log

EN = Translator("en")  # the words a person reads (the client's)

LIMIT = 120  # seconds: a whole 3-player match between processes takes a few
TUNISIAN = PRESETS["tunisian"]


def _agree(logs: list[Path], target: int) -> dict:
    """Every log audits VALID to the same three totals and winner, the winner holds the
    strict maximum at or above the target, and the records replay to themselves."""
    reports = [audit_log(p) for p in logs]
    assert all(r.verdict == VALID for r in reports), [r.reason for r in reports]
    assert all(r.warnings == [] for r in reports)
    first = reports[0]
    assert all((r.winner, r.totals, r.records) == (first.winner, first.totals, first.records)
               for r in reports)
    assert len(first.totals) == 3 and first.winner is not None
    top = max(first.totals)
    assert top >= target and first.totals.count(top) == 1
    assert first.totals[first.winner] == top
    assert replay_records(first.records) == first.records
    assert {r["players"] for r in first.records if r["type"] == "hand"} == {3}
    # The same shape of record as simulate's model writes for a 3-player match.
    model = _simulated_record_keys()
    assert all(set(r) == model[r["type"]] for r in first.records), \
        [(r["type"], set(r) ^ model[r["type"]]) for r in first.records]
    return {"winner": first.winner, "totals": first.totals, "records": first.records}


def _simulated_record_keys() -> dict[str, set[str]]:
    import random

    from chkobba_p2p.bots.levels import make_bot
    from chkobba_p2p.bots.simulate import play_match

    _, records = play_match(TUNISIAN.with_target(2), [make_bot("greedy", i) for i in range(3)],
                            random.Random(3))
    return {r["type"]: set(r) for r in records}


# ------------------------------------------------------------------ the rules at 3


def test_points_need_a_strict_maximum_at_three():
    """Carta, dinari, barmila by strict maximum among three sides; equal sevens go to the
    most sixes among the sides tied on sevens only; a tie is beji."""
    c = card
    piles = [
        # 14 cards, 3 diamonds, sevens 7S 7H, sixes 6S
        [c("7S"), c("7H"), c("6S"), c("1D"), c("2D"), c("3D"), *map(c, (
            "1S", "2S", "3S", "4S", "5S", "1H", "2H", "3H"))],
        # 14 cards, 4 diamonds, sevens 7C 7D (el haya), sixes 6H 6C
        [c("7C"), c("7D"), c("6H"), c("6C"), c("4D"), c("5D"), c("6D"), *map(c, (
            "4H", "5H", "1C", "2C", "3C", "4C", "5C"))],
        # 12 cards, 3 diamonds, no seven, sixes none
        list(map(c, ("8D", "9D", "10D", "8S", "9S", "10S", "8H", "9H", "10H", "8C", "9C",
                     "10C"))),
    ]
    assert sum(map(len, piles)) == 40
    s = score_piles(piles, (0, 1, 0), Ruleset(), 3)
    assert s.cards == (14, 14, 12) and s.categories["carta"] is None  # 14-14: beji
    assert s.diamonds == (3, 4, 3) and s.categories["dinari"] == 1
    # 2-2-0 sevens: the sixes decide between seats 0 and 1 only (1 against 2).
    assert s.categories["barmila"] == 1 and s.categories["haya"] == 1
    assert s.points == (0, 4, 0)


def test_a_tie_at_the_top_of_three_totals_plays_another_hand(tmp_path):
    """First to the target with the strictly highest total; two seats level at the top
    (at or above the target) play another hand: offline (simulate's model, seed 12) and
    between sessions (a key whose first hand ends 0-2-2 in a match to 1)."""
    import random

    from chkobba_p2p.bots.levels import make_bot
    from chkobba_p2p.bots.simulate import play_match

    bots = [make_bot("greedy", i) for i in range(3)]
    m, records = play_match(Ruleset().with_target(1), bots, random.Random(12))
    assert [r.totals for r in m.results] == [(1, 2, 2), (5, 3, 3)] and m.winner == 0
    assert replay_records(records) == records
    played = play(3, rules=TUNISIAN.with_target(1), key=b"tie1")
    report = audit_log(played.write_log(tmp_path / "tie.chklog"))
    hands = [r for r in report.records if r["type"] == "hand"]
    assert [h["totals"] for h in hands] == [[0, 2, 2], [0, 7, 2]]
    assert report.verdict == VALID and report.winner == 1


# ------------------------------------------------------------ in process, no network


@pytest.mark.parametrize("proofs", slow_when(bool, [False, True]))  # proofs: in workers
def test_a_three_player_match_in_process_audits_valid_from_every_seat(tmp_path, proofs):
    played = play(3, rules=TUNISIAN.with_target(3), proofs=proofs, key=b"three-proofs")
    assert TUNISIAN.opening is Opening.CUT_AND_DRAW
    logs = [played.write_log(tmp_path / f"seat{s}.chklog", seat=s) for s in range(3)]
    result = _agree(logs, target=3)
    # The cut-and-draw: every hand opens with the cutter's choice.
    for rec in result["records"]:
        if rec["type"] == "hand":
            assert any("cut" in e for e in rec["events"]), rec["events"][:3]


@pytest.mark.parametrize(("variant", "key"), [
    ("redeal-kings", b"three260"),  # the default: three kings on the table, 10D 10S 10C
    ("redeal-any-three", b"three57"),  # three fours
])
def test_a_redealt_opening_at_three_is_audited_and_recorded(tmp_path, variant, key):
    rules = TUNISIAN.with_variant(variant).with_target(1)
    played = play(3, rules=rules, seed=1, key=key)  # a key whose first opening redeals
    report = audit_log(played.write_log(tmp_path / "redeal.chklog"))
    assert report.verdict == VALID
    redeals = report.records[0]["redeals"]
    assert len(redeals) == 1
    values = [int(t[:-1]) for t in redeals[0]["table"]]
    top = max(values, key=values.count)
    assert values.count(top) >= 3 and (top == 10 or variant == "redeal-any-three")
    assert replay_records(report.records) == report.records


def test_a_resignation_at_three_stops_the_match_and_nobody_wins(tmp_path):
    played = play(3, key=b"three-resign", stop_after=40, abort_by=1,
                  abort_code=ErrorCode.RESIGNED)
    for seat in range(3):
        report = audit_log(played.write_log(tmp_path / f"r{seat}.chklog", seat=seat))
        assert report.verdict == VALID and report.code == "resigned"
        assert report.winner is None
        assert "peer1 resigned" in verdict_said(report) and "nobody wins" in verdict_said(report)
    assert played.sessions[0].aborted.winner_side(3) is None
    assert played.sessions[0].aborted.resigned


def test_the_genesis_and_the_lobby_seat_three_and_refuse_five():
    ids = [Identity.generate() for _ in range(3)]
    lobby = Lobby(ids[0], "host", Ruleset(), 3)
    assert lobby.take_seat(ids[1].public, "b") == 1
    assert lobby.take_seat(ids[2].public, "c") == 2
    assert lobby.full
    table = lobby.table()
    assert table.players == 3 and table.seating is Seating.of(3)
    with pytest.raises(LocalError):
        Lobby(ids[0], "host", Ruleset(), 5)
    assert isinstance(table, TableInfo)


# --------------------------------------------------------------- in memory, trio


class Answering(RecordingController):
    def __init__(self, seat: int, answer: bool | None) -> None:
        super().__init__(seat)
        self.answer = answer
        self.answers: list[RematchAnswer] = []

    def on_event(self, event: object) -> None:
        super().on_event(event)
        if isinstance(event, RematchAnswer):
            self.answers.append(event)

    async def after_match(self, outcome):
        return self.answer


class HostAwaitingTwo(Answering):
    def __init__(self) -> None:
        super().__init__(0, False)
        import trio
        self.both = trio.Event()

    def on_event(self, event: object) -> None:
        super().on_event(event)
        if len(self.answers) == 2:
            self.both.set()

    async def after_match(self, outcome):
        import trio
        with trio.fail_after(30):
            await self.both.wait()
        return False


@pytest.mark.parametrize("proofs", slow_when(bool, [False, True]))  # proofs: in workers
async def test_a_three_peer_table_in_memory_completes_and_every_log_agrees(
        tmp_path, proofs, autojump_clock):
    host = HostAwaitingTwo()
    table = InMemoryTable(tmp_path, players=3, rules=TUNISIAN.with_target(2),
                          shuffle_proofs=proofs,
                          controllers=[host, Answering(1, True), Answering(2, False)])
    outcomes = await table.run()
    assert all(o.completed for o in outcomes)
    assert len({words(o, EN) for o in outcomes}) == 1
    done = outcomes[0].done
    assert done is not None and len(done.totals) == 3
    result = _agree(sorted(tmp_path.glob("*.chklog")), target=2)
    assert (result["winner"], result["totals"]) == (done.winner_side, tuple(done.totals))
    # Both joiners' answers to a rematch reach the host (seats go in order of arrival).
    assert sorted(a.seat for a in host.answers) == [1, 2]
    assert sorted(a.accept for a in host.answers) == [False, True]
    assert not any(a.left for a in host.answers)


class Resigner(RecordingController):
    def __init__(self, seat: int, at: int = 2) -> None:
        super().__init__(seat)
        self.at, self.plays = at, 0

    async def choose_play(self, hand):
        import trio
        self.plays += 1
        if self.plays == self.at:
            assert self.resign()
            await trio.sleep_forever()
        return await super().choose_play(hand)


async def test_a_resignation_at_a_three_peer_table_names_no_winner(tmp_path, autojump_clock):
    table = InMemoryTable(tmp_path, players=3,
                          controllers=[RecordingController(0), Resigner(1),
                                       RecordingController(2)])
    outcomes = await table.run()
    resigner = outcomes[1].seat  # seats go in order of arrival
    assert resigner in (1, 2)
    for o in outcomes:
        assert o.aborted is not None and o.aborted.resigned and o.resigned == resigner
        assert o.winner_side is None
        assert "nobody wins" in words(o, EN)
    for log in sorted(tmp_path.glob("*.chklog")):
        report = audit_log(log)
        assert report.verdict == VALID and report.winner is None


# ------------------------------------------------------ real processes, loopback








def _start_host(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, int]:
    return start_host(tmp_path, "--players", "3", *args)


def _result(proc: subprocess.Popen) -> str:
    out, err = proc.communicate(timeout=LIMIT)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{out}\n{err}"
    results = [line for line in out.splitlines() if line.startswith("result: ")]
    assert len(results) == 1, out
    return results[0]


def _replayed(tmp_path: Path, log: Path) -> tuple[int, str, list]:
    """``chkobba replay LOG --json``: its exit status, verdict line and records."""
    rec = log.with_suffix(".jsonl")
    r = subprocess.run(cli_command("replay", str(log), "--json", str(rec)), cwd=REPO_ROOT,
                       env=_env(tmp_path), capture_output=True, text=True, timeout=LIMIT)
    return r.returncode, r.stdout.rstrip().splitlines()[-1], list(read_records(rec))


@pytest.mark.slow
@pytest.mark.parametrize("options", [(), ("--no-shuffle-proofs",),
                                     ("--no-shuffle-proofs", "--variant", "plain")])
def test_a_whole_three_player_match_between_processes(tmp_path, options):
    host, port = _start_host(tmp_path, "--target", "4", *options)
    bots = [_bot(tmp_path, port, f"bot{i}") for i in (1, 2)]
    results = [_result(host)] + [_result(b) for b in bots]
    assert results[0].startswith("result: match over after")
    assert len(set(results)) == 1, results
    logs = [tmp_path / "host.chklog", tmp_path / "bot1.chklog", tmp_path / "bot2.chklog"]
    bodies = [read_log(p).bodies for p in logs]
    assert bodies[0] == bodies[1] == bodies[2]
    result = _agree(logs, target=4)
    replays = [_replayed(tmp_path, p) for p in logs]
    assert all(code == 0 and verdict.startswith("VALID") for code, verdict, _ in replays)
    assert all(records == result["records"] for _, _, records in replays)
    cut = any("cut" in e for r in result["records"] if r["type"] == "hand"
              for e in r["events"])
    assert cut == ("plain" not in options)


def _wait_for_entries(log: Path, count: int, seconds: float = 30) -> None:
    """Until the log another process writes holds ``count`` entries (or ``seconds``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if len(read_log(log).bodies) >= count:
                return
        except LogUnreadable:  # not written yet, or caught mid-write
            pass
        time.sleep(0.01)


@pytest.mark.slow
def test_a_three_player_bot_killed_mid_hand_resumes(tmp_path):
    host, port = _start_host(tmp_path, "--no-shuffle-proofs", "--target", "4")
    other = _bot(tmp_path, port, "other")
    key = tmp_path / "victim.key"
    args = ("--identity", str(key), "--delay", "0.02")
    victim = _bot(tmp_path, port, "victim", *args)
    log = tmp_path / "victim.chklog"
    _wait_for_entries(log, 40)
    victim.kill()  # SIGKILL: no chance to clean up
    victim.wait()
    before = len(read_log(log).bodies)
    assert before >= 40
    again = _result(_bot(tmp_path, port, "victim", *args))
    assert again.startswith("result: match over after")
    assert _result(host) == again == _result(other)
    assert len(read_log(log).bodies) > before
    logs = [tmp_path / "host.chklog", tmp_path / "other.chklog", log]
    assert read_log(logs[0]).bodies == read_log(log).bodies
    _agree(logs, target=4)


# ------------------------------------------------------------ the published vectors

VECTORS = Path(__file__).parent.parent / "vectors"
REGEN = os.environ.get("REGENERATE_WIRE_VECTORS") == "1"
#: Entries of the 3-player transcript vector: the genesis, three readies, then the deal's
#: turns of the first-dealer draw (each seat's key, the three shuffles, the reveals).
THREE_ENTRIES = 16


def _three_table() -> tuple[TableInfo, list[Identity]]:
    ids = [Identity.from_seed(bytes([i + 1]) * 32) for i in range(3)]
    seats = tuple(SeatInfo(i, ids[i].public, n) for i, n in enumerate(("host", "amel", "badr")))
    # The capabilities the vector's genesis holds (it predates shares-ride/v1).
    return TableInfo(bytes(range(200, 216)), 1, 3, Ruleset(), seats,
                     ("deal/v1", "resume/v1", "early-deal/v1")), ids


def _three_case() -> tuple[list[bytes], Entry, list[Identity]]:
    """A 3-player game from fixed keys and masters: its first entries, then seat 1's
    resignation at that head (Ed25519 and the deal's derivations are deterministic)."""
    table, ids = _three_table()
    host, genesis = Session.create(ids[0], table, master=bytes([50]) * 32)
    sessions = [host] + [Session.join(ids[i], genesis, ids[0].public, master=bytes([50 + i]) * 32)
                         for i in (1, 2)]
    bodies = [genesis.body]
    while len(bodies) < THREE_ENTRIES:
        for s in sessions:
            e = s.next_entry()
            if e is not None and len(bodies) < THREE_ENTRIES:
                bodies.append(e.body)
                for other in sessions:
                    if other is not s:
                        other.receive(open_entry(e.body))
    return bodies, sessions[1].resign("amel resigned"), ids


@pytest.mark.skipif(not REGEN, reason="regeneration only on request")
def test_regenerate_three_player_vectors():
    bodies, _, ids = _three_case()
    path = VECTORS / "transcript_three.chklog"
    path.unlink(missing_ok=True)
    w = TranscriptWriter(path)
    w.write_header(game=open_entry(bodies[0]).game, seat=1, key=ids[1].public, name="amel",
                   host="127.0.0.1:7777")
    for b in bodies:
        w.append(b)
    w.close()
    entries = [open_entry(b) for b in bodies]
    amel = Session.resume(ids[1], bodies, ids[0].public, bytes([51]) * 32)
    resign = amel.resign("amel resigned")
    (VECTORS / "wire_three.json").write_text(json.dumps({
        "seeds_hex": [bytes([i + 1]).hex() * 32 for i in range(3)],
        "masters_hex": [bytes([50 + i]).hex() * 32 for i in range(3)],
        "entries": [{"kind": e.kind, "seat": e.seat, "id_hex": e.id.hex()} for e in entries],
        "head_hex": entries[-1].id.hex(),
        "resign_body_hex": resign.body.hex(),
        "resign_fields": {"k": "abort", "seat": 1, "code": 404, "blamed": 1,
                          "why": "amel resigned"},
        "winner_side": None}, indent=2, sort_keys=True) + "\n")


def test_three_player_vectors():
    """PROTOCOL.md 16: a 3-player genesis (``players`` 3, three seats), the readies of
    seats 0, 1, 2 and the deal's turns among three peers, byte for byte; a resignation at
    3 players (PROTOCOL.md 17) that every peer and an auditor read as the match stopped
    with no winner."""
    v = json.loads((VECTORS / "wire_three.json").read_text())
    log = read_log(VECTORS / "transcript_three.chklog")
    fresh, _, ids = _three_case()
    bodies = list(log.bodies)
    # The genesis and the readies are the same bytes again (Ed25519 is deterministic);
    # the deal's turns carry fresh proof nonces, so the file is the reference past them.
    assert bodies[:4] == fresh[:4] and len(bodies) == THREE_ENTRIES
    entries = [open_entry(b) for b in bodies]
    assert [(e.kind, e.seat, e.id.hex()) for e in entries] == \
        [(x["kind"], x["seat"], x["id_hex"]) for x in v["entries"]]
    assert [e.kind for e in entries[:4]] == ["table", "ready", "ready", "ready"]
    assert [e.seat for e in entries[1:4]] == [0, 1, 2]
    assert entries[0].fields["players"] == 3 and len(entries[0].fields["seats"]) == 3
    # Seat 1 resumes the log with its master secret: every check passes again.
    master = bytes.fromhex(v["masters_hex"][1])
    amel = Session.resume(ids[1], list(log.bodies), ids[0].public, master)
    assert amel.head.hex() == v["head_hex"]
    assert amel.resign("amel resigned").body.hex() == v["resign_body_hex"]
    entry = open_entry(bytes.fromhex(v["resign_body_hex"]))
    for k, value in v["resign_fields"].items():
        assert (entry.kind if k == "k" else entry.seat if k == "seat"
                else entry.fields[k]) == value, k
    host = Session.resume(ids[0], list(log.bodies), ids[0].public,
                          bytes.fromhex(v["masters_hex"][0]))
    host.receive(entry)
    assert host.aborted is not None and host.aborted.resigned
    assert host.aborted.winner_side(3) is v["winner_side"] is None
    report = audit_bodies([*bodies, entry.body], workers=0)
    assert report.verdict == VALID and report.winner is None, said(report)
    assert "nobody wins" in said(report)


def test_three_player_matches_are_rated_in_a_pool_of_their_own():
    from chkobba_p2p.observe.rating import POOLS, RatedMatch, compute_ratings

    keys = (b"a" * 32, b"b" * 32, b"c" * 32)
    sides = tuple((s,) for s in range(3))
    pools = compute_ratings([RatedMatch(("2026-01-01", "g1"), 3, keys, sides, winner=2)])
    assert 3 in POOLS and pools[2] == {} and pools[4] == {}
    three = pools[3]
    # The winner beat both; the two others drew with each other and lost to the winner.
    assert three[keys[2]].rating > 1500 > three[keys[0]].rating
    assert three[keys[0]].rating == pytest.approx(three[keys[1]].rating)
    assert all(three[k].games == 1 for k in keys)


# ------------------------------------------------------------- the client's words


def test_replay_text_and_html_show_three_scores_and_a_resignation_with_no_winner(
        tmp_path, capsys):
    from chkobba_cli.main import main

    done = played_once(3, rules=TUNISIAN.with_target(4), key=b"three-replay")
    log = done.write_log(tmp_path / "g3.chklog")
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"result after \d+ hands?: host \d+, peer1 \d+, peer2 \d+", out), out
    assert re.search(r"complete: \w+ wins \d+-\d+-\d+", out), out
    assert main(["replay", str(log), "--html", str(tmp_path / "g3.html")]) == 0
    page = (tmp_path / "g3.html").read_text(encoding="utf-8")
    for name in ("host", "peer1", "peer2"):  # a column per player in every score table
        head = f'<th class=\'n\'><span class="who">{name}</span></th>'
        assert page.count(head) == page.count("<th class='n'><span class=\"who\">host")
        assert head in page
    resigned = played_once(3, key=b"three-resign", stop_after=40, abort_by=1,
                           abort_code=ErrorCode.RESIGNED).write_log(tmp_path / "r3.chklog")
    capsys.readouterr()
    assert main(["replay", str(resigned), "--html", str(tmp_path / "r3.html")]) == 0
    assert "the two others are level, nobody wins" in capsys.readouterr().out
    page = (tmp_path / "r3.html").read_text(encoding="utf-8")
    assert "resigned at entry #40 and loses: the two others are level, and nobody wins" \
        in page
    assert main(["replay", str(resigned), "--html", str(tmp_path / "r3fr.html"),
                 "--lang", "fr"]) == 0
    assert "personne ne gagne" in (tmp_path / "r3fr.html").read_text(encoding="utf-8")


def test_history_lists_three_player_matches_and_rates_them_in_their_own_pool(
        tmp_path, capsys, monkeypatch):
    from chkobba_cli.main import main

    monkeypatch.setenv("CHKOBBA_CACHE_DIR", str(tmp_path / "cache"))
    logs = tmp_path / "logs"
    logs.mkdir()
    # The two matches of the replay's test above (played once per test process).
    played_once(3, rules=TUNISIAN.with_target(4), key=b"three-replay").write_log(
        logs / "g3.chklog")
    played_once(3, key=b"three-resign", stop_after=40, abort_by=1,
                abort_code=ErrorCode.RESIGNED).write_log(logs / "r3.chklog")
    assert main(["history", str(logs), "--players", "3", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out.count("  3 players  ") == 2 and "2 matches, 2 counted" in out
    assert re.search(r"\w+ won \d+ \(\w+ \d+, \w+ \d+\)", out), out  # whose each total is
    # The resigner loses at 3 players too (RULES.md): the two others were level.
    assert "peer1 resigned at 3 players, the two others level: a loss for peer1" in out
    assert main(["history", str(logs), "--ratings", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    pool = out.split("Glicko-2 ratings, 3 players")[1].split("Glicko-2 ratings, 4")[0]
    assert pool.count("1 match") == 6, out  # both matches count (a resignation too)


@pytest.mark.slow
def test_chkobba_watch_of_a_three_player_table_between_processes(tmp_path):
    """``chkobba watch`` at a 3-player table: the spectator prints the game and a verdict
    with three totals, in the players' names; its copy of the log replays VALID."""
    host, port = _start_host(tmp_path, "--no-shuffle-proofs", "--target", "3",
                             "--spectators", "1")
    watch = subprocess.Popen(cli_command("watch", f"127.0.0.1:{port}", "--name", "Amel",
                                         "--lang", "en", "--log", str(tmp_path / "w.chklog")),
                             cwd=REPO_ROOT, env=_env(tmp_path), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    bots = [_bot(tmp_path, port, f"bot{i}", "--connect-retry", "5") for i in (1, 2)]
    results = [_result(b) for b in bots] + [_result(host)]
    assert len(set(results)) == 1
    out, err = watch.communicate(timeout=LIMIT)
    assert watch.returncode == 0, err
    names = [s.name for s in audit_log(tmp_path / "w.chklog").table.seats]
    assert re.search(rf"^VALID: complete: ({'|'.join(map(re.escape, names))}) wins "
                     r"\d+-\d+-\d+$", out, re.M), out
    _agree([tmp_path / "w.chklog", tmp_path / "host.chklog"], target=3)


@pytest.mark.slow
def test_a_three_player_host_killed_mid_hand_resumes(tmp_path):
    """The host of a 3-player table is SIGKILLed; restarted with the same identity and
    port it rebuilds the game from its log, both bots reconnect, the match completes and
    every log replays VALID with the same result."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args = ("--players", "3", "--no-shuffle-proofs", "--target", "3",
            "--identity", str(tmp_path / "host.key"), "--port", str(port))

    def start_host() -> subprocess.Popen:
        return subprocess.Popen(
            cli_command("host", "--headless", "--bind", "127.0.0.1", "--no-beacon", "--quiet",
                        "--log", str(tmp_path / "host.chklog"), *args),
            cwd=REPO_ROOT, env=_env(tmp_path), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)

    host = start_host()
    bots = [_bot(tmp_path, port, f"bot{i}", "--delay", "0.02", "--connect-retry", "20")
            for i in (1, 2)]
    log = tmp_path / "host.chklog"
    _wait_for_entries(log, 40)
    host.kill()
    host.wait()
    before = len(read_log(log).bodies)
    assert before >= 40
    again = start_host()
    result = _result(again)
    assert result.startswith("result: match over after")
    assert all(_result(b) == result for b in bots)
    logs = [log, tmp_path / "bot1.chklog", tmp_path / "bot2.chklog"]
    assert len(read_log(log).bodies) > before
    assert read_log(logs[1]).bodies == read_log(log).bodies == \
        read_log(logs[2]).bodies
    _agree(logs, target=3)


# ------------------------------------------------------------- the end screen at 3


@pytest.fixture
def app_session():
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        yield


def _end_screen(seat: int, outcome_of, lang: str = "en") -> str:
    from chkobba_cli.tui.app import TuiApp
    from chkobba_cli.tui.screens import dialogs
    from chkobba_p2p._shell.peer import Lobby as LobbyEvent
    from chkobba_p2p.link.events import Outcome

    names = ("amel", "sami", "hana")
    ids = [Identity.from_seed(bytes([i + 1]) * 32) for i in range(3)]
    table = TableInfo(bytes(16), 1, 3, Ruleset(),
                      tuple(SeatInfo(i, ids[i].public, n) for i, n in enumerate(names)))
    ui = TuiApp(kind="join", lang=lang, seat=seat, players=3)
    ui.size = (24, 80)
    ui.state = ui.state.apply(LobbyEvent(tuple((n, f"{i:04x}-0000-0000-0000")
                                               for i, n in enumerate(names))))
    out = Outcome(seat, table, None, **outcome_of())
    lines = dialogs.over_lines(ui.view, out, None, 80)
    return " ".join(" ".join("".join(t for _, t in line) for line in lines).split())


def test_the_end_screen_at_three_names_the_winner_with_three_totals(app_session):
    from chkobba_p2p.transcript.events import MatchDone

    text = _end_screen(0, lambda: {"done": MatchDone(2, (3, 5, 9), 4)})
    assert "hana wins 9 (you 3, sami 5)" in text, text  # whose each total is
    assert "You win 9 (amel 3, sami 5)!" in _end_screen(
        2, lambda: {"done": MatchDone(2, (3, 5, 9), 4)})


@pytest.mark.parametrize(("lang", "seat", "words"), [
    ("en", 0, "sami resigned and loses: the two others are level, nobody wins"),
    ("en", 1, "You resigned and lose: the two others are level, nobody wins"),
    ("fr", 2, "sami abandonne et perd : les deux autres sont à égalité, personne ne gagne"),
])
def test_the_end_screen_at_three_after_a_resignation_names_no_winner(app_session, lang, seat,
                                                                     words):
    from chkobba_p2p.transcript.events import Aborted, Standing

    text = _end_screen(seat, lambda: {"aborted": Aborted(
        1, ErrorCode.RESIGNED, 1, "the player resigned", Standing.SELF)}, lang)
    assert words in text, text
    assert "wins the match" not in text and "gagne la partie" not in text


@pytest.mark.parametrize(("seat", "words", "never"), [
    (2, "sami ran out of time: amel won on time", "You ran out of time"),
    (1, "You ran out of time: amel won on time", "sami ran out of time"),
    (0, "sami ran out of time: you won on time!", "You ran out of time"),
])
def test_at_three_a_flag_is_told_to_each_seat_as_it_concerns_it(app_session, seat, words,
                                                               never):
    """The host flags sami (seat 1) while amel (seat 0) is ahead: amel wins on time; hana
    (seat 2), who neither ran out of time nor won, is never told that she ran out."""
    from chkobba_p2p.transcript.events import Aborted, Standing

    text = _end_screen(seat, lambda: {"aborted": Aborted(
        0, ErrorCode.TIMEOUT, 1, "slow", Standing.OWED, flag=1, totals=(5, 1, 2))})
    assert words in text, text
    assert never not in text, text


def test_the_line_after_the_screen_at_three_tells_a_result_not_a_stopped_game(app_session):
    """The line the client prints once its screen closed: sami resigned at 0-0-0, so
    sami loses and nobody wins; a result, never "Game stopped"."""
    from chkobba_cli.tui.app import TuiApp
    from chkobba_cli.words.ending import result_line
    from chkobba_p2p.link.events import Outcome
    from chkobba_p2p.transcript.events import Aborted, Standing

    names = ("amel", "sami", "hana")
    ids = [Identity.from_seed(bytes([i + 1]) * 32) for i in range(3)]
    table = TableInfo(bytes(16), 1, 3, Ruleset(),
                      tuple(SeatInfo(i, ids[i].public, n) for i, n in enumerate(names)))
    ui = TuiApp(kind="join", lang="en", seat=0, players=3)
    ui.state = ui.state.with_table(table, 0)
    out = Outcome(0, table, None, aborted=Aborted(
        1, ErrorCode.RESIGNED, 1, "the player resigned", Standing.SELF, totals=(0, 0, 0)))
    assert out.concluded and not out.decided
    line = result_line(out, ui)
    assert "nobody wins" in line and "stopped" not in line, line


@pytest.mark.parametrize(("players", "refused"), [(2, False), (3, False), (4, False),
                                                  (1, True), (5, True)])
def test_a_genesis_seats_two_three_or_four(players, refused):
    """PROTOCOL.md 1: a genesis with ``players`` 3 is a table like any other; 1 or 5 is
    refused with ``bad_field`` (the signed entry itself is well formed)."""
    from chkobba_p2p.wire.codec import GENESIS_PREV, ProtocolError, make_entry

    ids = [Identity.from_seed(bytes([i + 1]) * 32) for i in range(players)]
    body = {"v": 1, "players": players, "rules": Ruleset().to_dict(),
            "rules_hash": Ruleset().digest(),
            "seats": [{"seat": i, "key": ids[i].public, "name": f"p{i}"}
                      for i in range(players)],
            "caps": ["deal/v1", "resume/v1"]}
    genesis = make_entry(ids[0], game=bytes(16), seat=0, seq=0, prev=GENESIS_PREV,
                         kind="table", body=body)
    if refused:
        with pytest.raises(ProtocolError) as err:
            TableInfo.from_entry(genesis)
        assert err.value.error_code is ErrorCode.BAD_FIELD
    else:
        table = TableInfo.from_entry(genesis)
        assert table.players == players and table.seating.sides == (2 if players == 4
                                                                   else players)


def test_the_headless_result_line_says_the_winners_total_first():
    # `chkobba host --headless` prints the client's words for the Outcome: "hana wins
    # 9-3-5", never the totals in seat order ("hana wins 3-5-9" read as a loss).
    from chkobba_p2p.link.events import Outcome
    from chkobba_p2p.transcript.events import MatchDone

    ids = [Identity.from_seed(bytes([i + 1]) * 32) for i in range(4)]
    three = TableInfo(bytes(16), 1, 3, Ruleset(), tuple(
        SeatInfo(i, ids[i].public, n) for i, n in enumerate(("amel", "sami", "hana"))))
    said = words(Outcome(0, three, None, done=MatchDone(2, (3, 5, 9), 4)), EN)
    assert said == "match over after 4 hands: hana wins 9-3-5", said
    four = TableInfo(bytes(16), 1, 4, Ruleset(), tuple(
        SeatInfo(i, ids[i].public, n) for i, n in enumerate(("a", "b", "c", "d"))))
    said = words(Outcome(0, four, None, done=MatchDone(1, (10, 12), 3)), EN)
    assert said.endswith(": b and d win 12-10"), said
    said = words(Outcome(0, four, None, done=MatchDone(1, (10, 12), 3)), Translator("fr"))
    assert said == "partie terminée après 3 manches : b et d gagnent 12-10", said


def test_the_headless_result_line_counts_one_hand_in_the_singular():
    from chkobba_p2p.link.events import Outcome
    from chkobba_p2p.transcript.events import MatchDone

    ids = [Identity.from_seed(bytes([i + 1]) * 32) for i in range(3)]
    three = TableInfo(bytes(16), 1, 3, Ruleset(), tuple(
        SeatInfo(i, ids[i].public, n) for i, n in enumerate(("sami", "amel", "bot"))))
    said = words(Outcome(2, three, None, done=MatchDone(0, (2, 1, 0), 1)), EN)
    assert said == "match over after 1 hand: sami wins 2-1-0", said
