"""Game records: written by simulate, read back, replayed through the engine."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba_p2p.bots.simple import GreedyBot, RandomBot
from chkobba_p2p.bots.simulate import play_match
from chkobba_p2p.game.record import RecordError, read_records, replay_records, write_records
from chkobba_p2p.game.rules import PRESETS

ROOT = Path(__file__).resolve().parent.parent.parent


@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]),
       preset=st.sampled_from(sorted(PRESETS)))
@settings(max_examples=15, deadline=None)
def test_a_replayed_record_reproduces_itself(seed, players, preset):
    bots = [GreedyBot(seed + i) if i % 2 else RandomBot(seed + i) for i in range(players)]
    _, records = play_match(PRESETS[preset], bots, random.Random(seed))
    assert replay_records(records) == records


def _one_match(tmp_path: Path) -> tuple[Path, list[dict]]:
    _, records = play_match(PRESETS["tunisian"], [GreedyBot(1), RandomBot(2)], random.Random(7))
    path = tmp_path / "game.jsonl"
    write_records(path, records)
    return path, records


def test_records_round_trip_through_a_file(tmp_path):
    path, records = _one_match(tmp_path)
    assert list(read_records(path)) == records
    first = records[0]
    for key in ("ruleset", "seats", "teams", "dealer", "cutter", "events", "opening_table",
                "piles", "score", "totals"):
        assert key in first
    assert records[-1]["type"] == "match" and "wins" in records[-1]["result"]


def test_a_forged_play_or_score_is_refused(tmp_path):
    _, records = _one_match(tmp_path)
    forged = copy.deepcopy(records)
    plays = [e for e in forged[0]["events"] if "play" in e]
    plays[0]["play"]["capture"] = ["1S", "2S", "3S"]
    with pytest.raises(RecordError):
        replay_records(forged)
    forged = copy.deepcopy(records)
    forged[0]["score"]["points"][0] += 1
    with pytest.raises(RecordError, match="disagrees"):
        replay_records(forged)
    forged = copy.deepcopy(records)
    forged[-1]["winner"] = 1 - forged[-1]["winner"]
    with pytest.raises(RecordError):
        replay_records(forged)


def _forge(records: list[dict], change) -> list[dict]:
    forged = copy.deepcopy(records)
    change(forged)
    return forged


def _plays(rec: dict) -> list[dict]:
    return [e["play"] for e in rec["events"] if "play" in e]


@pytest.mark.parametrize("what,change", [
    ("chkobba flag", lambda r: _plays(r[0])[0].update(chkobba=not _plays(r[0])[0]["chkobba"])),
    ("sweep seat", lambda r: r[0]["events"][-1]["sweep"].update(
        seat=1 - (r[0]["events"][-1]["sweep"]["seat"] or 0))),
    ("dealer", lambda r: r[1].update(dealer=1 - r[1]["dealer"])),
    ("play order", lambda r: r[0]["events"].insert(-1, r[0]["events"].pop(-3))),
    ("true for 1", lambda r: r[0].update(match=True)),
    ("float total", lambda r: r[0]["totals"].__setitem__(0, float(r[0]["totals"][0]))),
    ("ruleset", lambda r: r[0]["ruleset"].update(forced_capture=True)),
    ("teams", lambda r: r[0].update(teams=[[1], [0]])),
    ("no match record", lambda r: r.pop()),
])
def test_every_kind_of_forgery_is_refused(tmp_path, what, change):
    _, records = _one_match(tmp_path)
    extra = play_match(PRESETS["tunisian"], [GreedyBot(3), RandomBot(4)], random.Random(8))[1]
    for rec in extra:
        rec["match"] = 2
    if what == "no match record":
        records = records[:-1] + extra  # a second match starts before the first one ends
        with pytest.raises(RecordError):
            replay_records(records)
        return
    with pytest.raises(RecordError):
        replay_records(_forge(records, change))


def test_records_of_a_bad_shape_give_a_record_error():
    _, records = play_match(PRESETS["tunisian"], [GreedyBot(1), RandomBot(2)], random.Random(7))
    for change in (lambda r: r[0].update(players=5), lambda r: r[0].update(dealer=7),
                   lambda r: r[0].pop("events")):
        with pytest.raises(RecordError):
            replay_records(_forge(records, change))


def test_malformed_lines_give_a_clear_error(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "hand"\n')
    with pytest.raises(RecordError, match="line 1: not JSON"):
        list(read_records(bad))
    bad.write_text(json.dumps({"type": "poem"}) + "\n")
    with pytest.raises(RecordError, match="not a hand or match"):
        list(read_records(bad))


def _simulate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "chkobba_cli.main", "simulate", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_simulate_is_reproducible_and_writes_records(tmp_path):
    rec = tmp_path / "sim.jsonl"
    a = _simulate("--players", "4", "--games", "3", "--seed", "9", "--record", str(rec))
    b = _simulate("--players", "4", "--games", "3", "--seed", "9")
    assert a.returncode == 0, a.stderr
    assert a.stdout.splitlines()[:-1] == b.stdout.splitlines()
    assert "matches: 3" in a.stdout and "chkobbas per hand:" in a.stdout
    records = list(read_records(rec))
    assert sum(r["type"] == "match" for r in records) == 3
    assert replay_records(records) == records
    c = _simulate("--players", "4", "--games", "3", "--seed", "10")
    assert c.stdout != b.stdout


@pytest.mark.slow
def test_simulate_refuses_bad_arguments_clearly():
    r = _simulate("--bots", "grandmaster")
    assert r.returncode == 2 and "unknown bot level" in r.stderr
    r = _simulate("--variant", "sideways")
    assert r.returncode == 2 and "invalid choice" in r.stderr


def test_a_record_with_a_redeal_replays():
    # Found by Hypothesis: the first hand of this match was dealt twice (three kings).
    seed, players = 2311839, 3
    bots = [GreedyBot(seed + i) if i % 2 else RandomBot(seed + i) for i in range(players)]
    _, records = play_match(PRESETS["cardavia"], bots, random.Random(seed))
    assert records[0]["redeals"], "the seed no longer gives a redeal: pick another"
    assert replay_records(records) == records
    # An abandoned opening that did not call for a redeal is refused.
    forged = copy.deepcopy(records)
    deal = forged[0]["redeals"][0]["events"][-1]["deal"]
    used = set(deal["cards"])
    king = next(i for i, c in enumerate(deal["cards"]) if c.startswith("10"))
    deal["cards"][king] = next(f"{v}S" for v in range(1, 8) if f"{v}S" not in used)
    with pytest.raises(RecordError, match="redeal was not due"):
        replay_records(forged)
