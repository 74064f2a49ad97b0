"""``chkobba replay``: the logs real peers write while they play audit as valid, every
peer's log gives the same records, and the command's output and exit statuses."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import time
from pathlib import Path

import pytest
from support.audit import play
from support.net import REPO_ROOT, cli_command, cli_env

from chkobba_cli.main import main
from chkobba_p2p.game.cards import Card
from chkobba_p2p.game.record import read_records, replay_records
from chkobba_p2p.observe.audit import (
    EXIT_INCOMPLETE,
    EXIT_INVALID,
    EXIT_USAGE,
    EXIT_VALID,
    read_log,
)
from chkobba_p2p.transcript.bodies import PlayAction
from chkobba_p2p.wire import codec as wire
from chkobba_p2p.wire.logfile import MAGIC

LIMIT = 120  # seconds for a whole match between processes


def _env(tmp_path: Path) -> dict[str, str]:
    env = cli_env()
    env["CHKOBBA_DATA_DIR"] = str(tmp_path / "data")
    return env


def _match_between_processes(tmp_path: Path) -> tuple[Path, Path]:
    """A host and a bot in separate processes; each prints its log's path before the game
    and writes the log while it plays.  Returns both logs."""
    host = subprocess.Popen(
        cli_command("host", "--headless", "--port", "0", "--bind", "127.0.0.1", "--no-beacon",
                    "--quiet", "--players", "2"),  # default log place: the data dir
        cwd=REPO_ROOT, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    assert host.stdout is not None
    first = host.stdout.readline()
    assert first.startswith("log: "), first  # printed at start, before anything else
    host_log = Path(first[5:].strip())
    assert host_log.parent == tmp_path / "data" / "logs" and host_log.suffix == ".chklog"
    port = None
    deadline = time.monotonic() + 30
    while port is None and time.monotonic() < deadline:
        m = re.search(r"listening on port (\d+)", host.stdout.readline())
        port = int(m.group(1)) if m else None
    assert port is not None
    bot = subprocess.Popen(cli_command("bot", f"127.0.0.1:{port}", "--name", "bot1", "--quiet"),
                           cwd=REPO_ROOT, env=_env(tmp_path), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    bot_out, _ = bot.communicate(timeout=LIMIT)
    host.communicate(timeout=LIMIT)
    assert bot_out.startswith("log: ")
    return host_log, Path(bot_out.splitlines()[0][5:].strip())


def test_logs_written_by_real_peers_replay_to_the_same_valid_match(tmp_path):
    """Both peers' logs of a match between processes audit to the same verdict and the
    same records; a complete match is valid.  (A known session bug can end an honest
    match with an abort at its very end; then the logs must still agree, and we play
    again.)"""
    for attempt in range(3):
        run = tmp_path / f"run{attempt}"
        logs = _match_between_processes(run)
        results = []
        for i, log in enumerate(logs):
            rec = run / f"records{i}.jsonl"
            r = subprocess.run(cli_command("replay", str(log), "--json", str(rec)),
                               cwd=REPO_ROOT, env=_env(run), capture_output=True, text=True,
                               timeout=LIMIT)
            assert r.returncode in (EXIT_VALID, EXIT_INVALID), r.stdout + r.stderr
            verdict = r.stdout.rstrip().splitlines()[-1]
            results.append((r.returncode, verdict, list(read_records(rec))))
        assert results[0] == results[1]  # one log is as good as the other
        code, verdict, records = results[0]
        if code == EXIT_VALID:
            assert verdict.startswith("VALID")
            assert replay_records(records) == records
            assert records[-1]["type"] == "match"
            return
        assert "INVALID (protocol_violation)" in verdict, verdict
    pytest.fail("no match between processes completed in 3 attempts")


@pytest.fixture(scope="module")
def log2(tmp_path_factory) -> Path:
    played = play(2, seed=21, key=b"replay-0")
    return played.write_log(tmp_path_factory.mktemp("replay") / "game.chklog")


def test_replay_prints_the_match(log2, capsys):
    assert main(["replay", str(log2)]) == EXIT_VALID
    out = capsys.readouterr().out
    # The players' names, never seat numbers, the verdict line included.
    assert re.search(r"first dealer: (host|peer1)\n", out)
    assert re.search(r"hand 1 \((host|peer1) deals", out)
    assert re.search(r"points: carta (host|peer1|beji)", out)
    assert re.search(r"result after \d+ hands: host \d+, peer1 \d+", out)
    assert re.search(r"winner: (host|peer1)\n", out)
    assert "seat" not in out
    # The score sheet: every hand by name with the categories each side scored, the totals.
    sheet = out.split("score sheet:\n", 1)[1].splitlines()
    rows = [line for line in sheet if re.match(r"  hand \d+: ", line)]
    assert rows and all(re.match(r"  hand \d+: (host|peer1) \+\d+ \(.*\) · (host|peer1) "
                                 r"\+\d+ \(.*\) → host \d+, peer1 \d+$", r) for r in rows), rows
    assert re.search(r"carta|dinari|haya", rows[0]) and "barmila (" in "\n".join(rows)
    assert re.match(r"  totals: host \d+ \((carta|dinari|barmila|haya|chkobba) \d",
                    sheet[len(rows)]), sheet
    last = out.rstrip().splitlines()[-1]
    assert last.startswith("VALID: ") and re.search(r"complete: (host|peer1) wins \d+-\d+$", last)


def test_a_resignation_is_told_in_the_players_names(tmp_path, capsys):
    played = play(2, seed=21, key=b"replay-0", stop_after=88, abort_by=1,
                  abort_code=wire.ErrorCode.RESIGNED)
    log = played.write_log(tmp_path / "resigned.chklog")
    assert main(["replay", str(log)]) == EXIT_VALID
    out = capsys.readouterr().out
    last = out.rstrip().splitlines()[-1]
    assert re.search(r"^VALID: .*: peer1 resigned \(entry #\d+\): host wins the match by "
                     "resignation$", last), last
    assert "seat" not in out


def test_the_kept_cut_card_is_named_play_by_play(log2, capsys):
    """Once a hand is revealed, "host keeps 5♠", not "keeps the drawn card"."""
    kept = 0
    for n in range(1, 4):
        main(["replay", str(log2), "--hand", str(n), "--ascii"])
        for line in capsys.readouterr().out.splitlines():
            if re.match(r"\s+cut   \S+ keeps", line):
                assert re.search(r"keeps (A|[2-7]|J|Q|K)[SHDC]$", line), line
                kept += 1
    assert kept


def test_replay_shows_one_hand_play_by_play(log2, capsys, monkeypatch):
    monkeypatch.setenv("LC_ALL", "C.UTF-8")  # a terminal that shows symbols
    assert main(["replay", str(log2), "--hand", "1"]) == EXIT_VALID
    out = capsys.readouterr().out
    plays = [line for line in out.splitlines()
             if re.match(r"\s+play  (host|peer1): ", line)]
    assert len(plays) == 36  # every card dealt to a player (4 opened the table), in order
    assert "hand 2:" not in out
    # The game's card notation: suit symbols and the table's figures (J, Q, K).
    assert re.search(r"play  (host|peer1): (A|[2-7]|J|Q|K)[♠♥♦♣]", out)
    assert main(["replay", str(log2), "--hand", "1", "--ascii"]) == EXIT_VALID
    ascii_out = capsys.readouterr().out
    assert ascii_out.isascii() and re.search(r"play  (host|peer1): (A|[2-7]|J|Q|K)[SHDC]",
                                             ascii_out)
    monkeypatch.setenv("LC_ALL", "C")  # a terminal that cannot: ASCII without asking
    assert main(["replay", str(log2), "--hand", "1"]) == EXIT_VALID
    assert capsys.readouterr().out == ascii_out


def test_replay_json_to_stdout_is_the_records_alone(log2, capsys):
    assert main(["replay", str(log2), "--json", "-"]) == EXIT_VALID
    captured = capsys.readouterr()
    records = [json.loads(line) for line in captured.out.splitlines()]
    assert records[-1]["type"] == "match" and all(r["type"] == "hand" for r in records[:-1])
    assert "VALID" in captured.err


def test_replay_exit_statuses(log2, tmp_path, capsys):
    log = read_log(log2)
    bodies = list(log.bodies)
    header = wire.encode(log.header)

    def write(name: str, bs: list[bytes]) -> str:
        p = tmp_path / name
        p.write_bytes(MAGIC + b"".join(wire.frame(b) for b in [header, *bs]))
        return str(p)

    bodies_swapped = bodies[:]
    bodies_swapped[20], bodies_swapped[21] = bodies_swapped[21], bodies_swapped[20]
    assert main(["replay", write("swapped.chklog", bodies_swapped)]) == EXIT_INVALID
    out = capsys.readouterr().out
    assert "INVALID (bad_chain): entry #20" in out and "blamed: nobody (the file was altered" in out
    assert main(["replay", "--quiet", write("cut.chklog", bodies[:90])]) == EXIT_INCOMPLETE
    assert capsys.readouterr().out.startswith("INCOMPLETE (unfinished)")
    torn = tmp_path / "torn.chklog"
    torn.write_bytes(MAGIC + b"".join(wire.frame(b) for b in [header, *bodies[:90]])
                     + wire.frame(bodies[90])[:-7])
    assert main(["replay", str(torn)]) == EXIT_INCOMPLETE
    assert "INCOMPLETE (truncated)" in capsys.readouterr().out
    # Torn in the last done, once the result was decided: the result stands (12.6).
    decided = tmp_path / "decided.chklog"
    decided.write_bytes(log2.read_bytes()[:-7])
    assert main(["replay", str(decided)]) == EXIT_VALID
    assert "decided:" in capsys.readouterr().out
    assert main(["replay", str(tmp_path / "nothing.chklog")]) == EXIT_USAGE
    assert "chkobba replay:" in capsys.readouterr().err
    (tmp_path / "text.chklog").write_text("not a log\n")
    assert main(["replay", str(tmp_path / "text.chklog")]) == EXIT_USAGE
    assert main(["replay", str(log2), "--hand", "99"]) == EXIT_USAGE
    assert "no hand 99" in capsys.readouterr().err


def test_replay_blames_a_cheater_by_name(tmp_path, capsys):
    def forge(s) -> bool:
        a = s._decided
        if not isinstance(a, PlayAction):
            return False
        s._decided = dataclasses.replace(a, card=Card((a.card.id + 1) % 40))
        return True
    played = play(2, cheater=1, hook=forge, seed=22, key=b"replay-cheat")
    path = played.write_log(tmp_path / "cheat.chklog")
    assert main(["replay", str(path)]) == EXIT_INVALID
    out = capsys.readouterr().out
    # The check's violation in words: the cheater by name, the cards in the game's notation.
    assert re.search(r"INVALID \(deal_failure\): entry #\d+: peer1 played \S+ but showed \S+ "
                     r"-- blamed: peer1", out), out
    assert "blamed: peer1 (key" in out
    # Why the game stopped, for a person: no wire code, the hand it happened in.
    assert re.search(r"host stopped the game during hand \d+: peer1 broke the rules \(a deal "
                     r"message that fails its check\) \(the log's entry \d+\)\.", out), out
    assert main(["replay", str(path), "--verbose"]) == EXIT_INVALID
    out = capsys.readouterr().out  # and as signed, for whoever checks it
    assert "host blames peer1 (deal_failure" in out and "the log proves it" in out


def test_replay_help_documents_the_exit_statuses(capsys):
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    out = capsys.readouterr().out
    for line in ("0  valid and complete", "1  invalid", "2  usage error", "3  incomplete"):
        assert line in out


@pytest.mark.parametrize("option", ["--json", "--html"])
def test_replay_into_a_missing_folder_fails_in_one_line_before_printing_anything(
        log2, tmp_path, option):
    target = tmp_path / "no" / "such" / "out.file"
    done = subprocess.run(cli_command("replay", str(log2), option, str(target)),
                          cwd=REPO_ROOT, env=_env(tmp_path), capture_output=True, text=True,
                          timeout=LIMIT)
    assert done.returncode == 2
    assert done.stdout == ""  # not the match, not the verdict: nothing before the error
    assert done.stderr.splitlines() == [
        f"chkobba replay: cannot write {target} ({option}): no folder {target.parent}"]
    assert not target.parent.exists()
    # A folder that is there: written, and the match printed as usual.
    target = tmp_path / "out.file"
    done = subprocess.run(cli_command("replay", str(log2), option, str(target)),
                          cwd=REPO_ROOT, env=_env(tmp_path), capture_output=True, text=True,
                          timeout=LIMIT)
    assert done.returncode == 0 and "VALID" in done.stdout and target.stat().st_size > 0


def test_review_lists_mistakes_and_a_summary_per_player_by_name(log2, capsys):
    assert main(["replay", str(log2), "--review", "--samples", "8"]) == EXIT_VALID
    out = capsys.readouterr().out
    assert "loss in points of the hand" in out and "mistake >= 0.5, blunder >= 1.0" in out
    for name in ("host", "peer1"):
        assert re.search(rf"^  {name}: \d+ decisions, mean loss \d\.\d+ points per decision, "
                         rf"\d+ mistakes?, \d+ blunders?, accuracy \d+\.\d%$", out, re.M), out
    for line in re.findall(r"^  hand \d+, .*\((?:mistake|blunder)\)$", out, re.M):
        # The move played and the better one, in the game's notation.
        assert re.match(r"  hand \d+, (play \d+|the cut): (host|peer1) (put|took|kept|placed) ",
                        line), line
        assert " was worth " in line and " points more " in line


def test_review_json_is_deterministic_and_follows_seat(log2, tmp_path, capsys):
    outs = []
    for i in range(2):
        path = tmp_path / f"review{i}.json"
        assert main(["replay", str(log2), "--review", "--seat", "peer1", "--samples", "8",
                     "--seed", "5", "--quiet", "--json", str(path)]) == EXIT_VALID
        outs.append(json.loads(path.read_text(encoding="utf-8")))
    capsys.readouterr()
    assert outs[0] == outs[1]
    data = outs[0]
    assert data["players"] == ["host", "peer1"] and data["seed"] == 5 and data["samples"] == 8
    assert data["mistake"] == 0.5 and data["blunder"] == 1.0
    assert data["grades"] and {g["seat"] for g in data["grades"]} == {1}
    assert {g["kind"] for g in data["grades"]} == {"play", "cut"}
    (summary,) = data["summaries"]
    assert summary["seat"] == 1 and summary["decisions"] == len(data["grades"])
    assert main(["replay", str(log2), "--review", "--seat", "nobody"]) == EXIT_USAGE
    assert "no such player" in capsys.readouterr().err


def test_review_of_one_hand_grades_every_play_and_the_cut(log2, capsys):
    assert main(["replay", str(log2), "--hand", "2", "--review", "--samples", "4",
                 "--ascii"]) == EXIT_VALID
    out = capsys.readouterr().out
    plays = [line for line in out.splitlines() if re.match(r"\s+play  ", line)]
    assert len(plays) == 36
    assert out.isascii()
    assert all(re.search(r"  \[(forced|best|good|inaccuracy|mistake|blunder)( -\d|\])", p)
               for p in plays)
    (cut,) = [line for line in out.splitlines() if re.match(r"\s+cut   ", line)]
    assert re.search(r"\[(best|good|inaccuracy|mistake|blunder)", cut), cut


def test_replay_jobs_gives_the_same_output_in_one_process_or_several(tmp_path, capsys,
                                                                     monkeypatch):
    """``--jobs 1`` audits in this process alone, ``--jobs 3`` with two proof workers,
    ``--workers 0`` as ``--jobs 1``: the same words and exit status, for a bad proof too."""
    from test_audit import deal_cheats

    from chkobba_p2p.observe import audit
    hook, _ = deal_cheats()["bad_shuffle_proof"]
    played = play(2, proofs=True, cheater=1, hook=hook, seed=24, key=b"replay-jobs")
    path = played.write_log(tmp_path / "jobs.chklog")
    real, asked = audit.audit_log, []

    def spy(*args, **kwargs):
        asked.append(kwargs.get("workers"))
        return real(*args, **kwargs)
    monkeypatch.setattr("chkobba_cli.commands.replay.audit_log", spy)
    outs = []
    for argv in (["--jobs", "1"], ["--jobs", "3"], ["-j", "2"], ["--workers", "0"], []):
        assert main(["replay", str(path), *argv]) == EXIT_INVALID
        outs.append(capsys.readouterr().out)
    assert asked == [0, 2, 1, 0, None]  # None: the default, one worker per core beyond one
    assert all(o == outs[0] for o in outs) and "blamed: peer1 (key" in outs[0]
    assert main(["replay", str(path), "--jobs", "0"]) == EXIT_USAGE
    assert main(["replay", str(path), "--jobs", "2", "--workers", "1"]) == EXIT_USAGE
