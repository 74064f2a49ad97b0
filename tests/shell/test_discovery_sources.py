"""LAN discovery's limits keyed on the packet's source address (PROTOCOL.md section 15,
issue 42 item 7): a neighbour cannot bury the honest address under made-up ones, nor
push the honest table off the list with tables naming other "first addresses"; a flood
of forged sources can, unless the table's key answered at that endpoint before
(``AnsweredEndpoints``).  The answers are real mDNS packets (zeroconf's ``DNSOutgoing``)
fed in memory with the source of our choosing; one test hears a real announcer on the
loopback interface."""

from __future__ import annotations

import dataclasses
import random

import pytest
import trio
from support.mdns import answer, crowded
from test_discovery import LO, _loopback_multicast, closed_port

from chkobba_p2p import AnsweredEndpoints
from chkobba_p2p._shell.discovery import (
    UNSEEN,
    Announcer,
    LanHeard,
    SourceListener,
    TableAd,
    TableFacts,
    _listen_sources,
    merge_tables,
)

FP = "0123-4567-89ab-cdef"
HONEST = ("192.0.2.5", 7777)
NEIGHBOUR = "192.0.2.66"
QID = 4242


def hear(listener: SourceListener, source: str, name: str, fp: str, port: int,
         addresses: list[str], query_id: int = QID) -> None:
    for packet in answer(query_id, name, fp, port, addresses):
        listener.feed(packet, (source, 5353))


def honest_table(tables: list[TableAd]) -> TableAd:
    [table] = [t for t in tables if t.fingerprint == FP]
    return table


def test_an_answer_packet_becomes_a_table_with_its_source():
    listener = SourceListener(QID)
    hear(listener, HONEST[0], "amel", FP, HONEST[1], [HONEST[0], "fd00::5"])
    [heard] = listener.heard()
    assert heard.source == HONEST[0]
    assert heard.ad.name == "amel" and heard.ad.fingerprint == FP
    assert heard.ad.addresses == (HONEST[0], "fd00::5") and heard.ad.port == HONEST[1]
    assert (heard.ad.players, heard.ad.free, heard.ad.rules) == (2, 1, "tunis")


def test_a_link_local_address_keeps_the_zone_it_was_heard_on():
    listener = SourceListener(QID)
    for packet in answer(QID, "amel", FP, HONEST[1], ["10.9.0.1", "fe80::5"]):
        listener.feed(packet, ("fe80::5%eth9", 5353, 0, 3))
    [heard] = listener.heard()
    assert heard.source == "fe80::5" and heard.ad.addresses == ("10.9.0.1", "fe80::5%3")
    [table] = merge_tables(listener.heard())
    assert table.code == f"[fe80::5%3]:7777#{FP}"  # its source's address first


def test_packets_that_do_not_answer_our_query_are_dropped_without_a_word():
    listener = SourceListener(QID)
    hear(listener, NEIGHBOUR, "other", FP, 7000, [NEIGHBOUR], query_id=QID + 1)  # not ours
    cut = answer(QID, "x", FP, 1, ["10.0.0.1"])[0][:40]
    for junk in (b"", b"\x00" * 5, random.Random(42).randbytes(300), cut):
        listener.feed(junk, (NEIGHBOUR, 5353))
    assert listener.heard() == []
    assert listener.packets == 5


def test_made_up_addresses_heard_first_do_not_bury_the_honest_one():
    """Attack (a): one record with the honest key and 16 made-up addresses, heard first.
    Before: the honest address was never tried.  Now the address that is its packet's
    source is tried first, and the neighbour adds at most 4 addresses."""
    listener = SourceListener(QID)
    hear(listener, NEIGHBOUR, "amel", FP, HONEST[1], [f"10.9.0.{i}" for i in range(1, 17)])
    hear(listener, HONEST[0], "amel", FP, HONEST[1], [HONEST[0]])
    table = honest_table(merge_tables(listener.heard()))
    assert table.all_endpoints[0] == HONEST
    assert table.code == f"192.0.2.5:7777#{FP}"
    assert len(table.all_endpoints) == 1 + 4


def test_tables_naming_other_first_addresses_count_against_their_source():
    """Attack (b): 64 fake tables from one neighbour, each naming another first address:
    8 are listed, and the honest table is, its address first."""
    listener = SourceListener(QID)
    for i in range(64):
        hear(listener, NEIGHBOUR, f"t{i}", f"{i:04x}-0000-0000-0000", 7000 + i, [f"10.8.{i}.1"])
    hear(listener, HONEST[0], "amel", FP, HONEST[1], [HONEST[0]])
    tables = merge_tables(listener.heard())
    assert len(tables) == 8 + 1
    assert honest_table(tables).all_endpoints[0] == HONEST


def flood(listener: SourceListener, sources: int = 300) -> None:
    for i in range(sources):
        source = f"10.7.{i // 250}.{i % 250 + 1}"
        hear(listener, source, f"f{i}", f"{i:04x}-1111-1111-1111", 7000, [source])


def test_a_flood_of_sources_lists_the_table_whose_key_answered_here_before(tmp_path):
    """Attack (c): 300 forged sources heard first fill the list (64 tables) and the
    source limit (256): the honest table is not listed, unless its endpoint answered a
    join before; then it keeps a place, its address first."""
    listener = SourceListener(QID)
    flood(listener)
    hear(listener, HONEST[0], "amel", FP, HONEST[1], [HONEST[0]])
    tables = merge_tables(listener.heard())
    assert len(tables) == 64 and not any(t.fingerprint == FP for t in tables)

    answered = AnsweredEndpoints(tmp_path / "lan_answered")
    answered.remember(FP, *HONEST)
    listener = SourceListener(QID, answered)
    flood(listener)
    hear(listener, HONEST[0], "amel", FP, HONEST[1], [HONEST[0]])
    tables = merge_tables(listener.heard(), answered)
    assert len(tables) == 65
    assert honest_table(tables).all_endpoints[0] == HONEST


def test_junk_from_one_source_does_not_use_up_the_browse(tmp_path):
    """A neighbour who read our port and query id off the multicast query sends thousands
    of packets (wrong query id, or garbage): it stops being read after a few dozen, so an
    honest answer heard after them is still taken, and a remembered endpoint is read even
    once the browse's budget is spent by many senders."""
    answered = AnsweredEndpoints(tmp_path / "lan_answered")
    answered.remember(FP, *HONEST)
    junks = (lambda i: answer(QID + 1, f"x{i}", "aaaa-bbbb-cccc-dddd", 1, ["192.0.2.9"])[0],
             lambda i: bytes(12))
    for junk in junks:
        listener = SourceListener(QID)
        for i in range(5000):
            listener.feed(junk(i), ("192.0.2.66", 5353))
        assert listener.packets < 100  # read, parsed: a few dozen of the 5,000
        hear(listener, "192.0.2.7", "sami", "1111-2222-3333-4444", 7777, ["192.0.2.7"])
        assert [t.name for t in merge_tables(listener.heard())] == ["sami"]
    # Junk from 5,000 sources spends the browse's budget: the remembered one is still read.
    listener = SourceListener(QID, answered)
    for i in range(5000):
        listener.feed(bytes(12), (f"10.{i // 250}.{i % 250}.1", 5353))
    hear(listener, HONEST[0], "amel", FP, HONEST[1], [HONEST[0]])
    assert honest_table(merge_tables(listener.heard(), answered)).all_endpoints[0] == HONEST


def test_the_work_of_a_check_is_bounded_by_the_sources_that_said_something_new():
    """A crafted flood within every cap (each source saying its 512 records, about 160
    valid tables): a check builds no more than the 8 tables a source may have listed,
    and a source that said nothing new since the last check is not built again.  Before,
    every check built every table of every source (186 such sources: 1.5 s of CPU)."""
    listener = SourceListener(QID)
    sources = [f"10.5.0.{i}" for i in range(1, 41)]
    for i, source in enumerate(sources):
        for packet in crowded(QID, i, address=source):
            listener.feed(packet, (source, 5353))
    assert listener.built == 0  # reading packets builds nothing
    heard = listener.heard()
    assert listener.built == len(heard) == 8 * len(sources)
    assert len(merge_tables(heard)) == 64  # the list is full: nothing more was needed
    for _ in range(3):  # nothing new heard: nothing built again
        assert listener.heard() == heard
    assert listener.built == 8 * len(sources)
    # One source says something new: only its first tables are built again.
    quiet = "10.5.1.1"
    for packet in crowded(QID, 99, address=quiet, records=100):
        listener.feed(packet, (quiet, 5353))
    listener.heard()
    assert listener.built == 8 * len(sources) + 8
    hear(listener, quiet, "late", FP, HONEST[1], [quiet])
    assert [h.ad.name for h in listener.heard() if h.source == quiet] == [
        f"t{i}" for i in range(8)]  # heard after its eighth: not listed, not built
    assert listener.built == 8 * len(sources) + 16


def test_past_its_first_tables_a_source_is_read_for_a_remembered_endpoint(tmp_path):
    """The first tables of a source are all that is built, except an announcement at an
    endpoint that answered before: a flood sent from the honest host's own address
    (forged) ahead of its answer does not keep it from being listed."""
    answered = AnsweredEndpoints(tmp_path / "lan_answered")
    answered.remember(FP, *HONEST)
    listener = SourceListener(QID, answered)
    for packet in crowded(QID, 1, address="10.5.0.1", records=100):
        listener.feed(packet, (HONEST[0], 5353))
    hear(listener, HONEST[0], "amel", FP, HONEST[1], [HONEST[0]])
    tables = merge_tables(listener.heard(), answered)
    assert honest_table(tables).all_endpoints[0] == HONEST
    assert len(tables) == 8 + 1 and listener.built == 8 + 1


def test_a_remembered_key_at_another_endpoint_gets_no_place(tmp_path):
    answered = AnsweredEndpoints(tmp_path / "lan_answered")
    answered.remember(FP, *HONEST)
    listener = SourceListener(QID, answered)
    flood(listener, 100)
    # The remembered key, announced by a neighbour at an address of its own: no place.
    hear(listener, NEIGHBOUR, "amel", FP, 9999, [NEIGHBOUR])
    assert not any(t.fingerprint == FP for t in merge_tables(listener.heard(), answered))


def test_the_name_shown_is_from_the_announcement_of_the_first_address():
    ad = TableAd(name="amel", addresses=(HONEST[0],), port=HONEST[1], players=2, free=1,
                 rules="x", spectators=0, fingerprint=FP)
    spoof = dataclasses.replace(ad, name="pay here", addresses=("10.9.0.1",), free=3)
    [table] = merge_tables([LanHeard(NEIGHBOUR, spoof), LanHeard(HONEST[0], ad)])
    assert (table.name, table.free) == ("amel", 1)
    assert table.all_endpoints == (HONEST, ("10.9.0.1", HONEST[1]))


def test_tables_whose_source_went_unseen_are_one_source_listed_after():
    seen = TableAd(name="amel", addresses=(HONEST[0],), port=HONEST[1], players=2, free=1,
                   rules="x", spectators=0, fingerprint=FP)
    unseen = [dataclasses.replace(seen, name=f"u{i}", addresses=(f"10.6.0.{i}",),
                                  fingerprint=f"{i:04x}-2222-2222-2222") for i in range(20)]
    tables = merge_tables([*(LanHeard(UNSEEN, ad) for ad in unseen), LanHeard(HONEST[0], seen)])
    assert tables[0].fingerprint == FP
    assert len(tables) == 1 + 8


def test_answered_endpoints_are_kept_in_a_small_file(tmp_path, monkeypatch):
    monkeypatch.setenv("CHKOBBA_DATA_DIR", str(tmp_path))
    answered = AnsweredEndpoints()
    answered.remember(FP, *HONEST)
    answered.remember(FP, "fe80::1%eth0", 7777)  # kept without its zone
    for i in range(AnsweredEndpoints.LIMIT):
        answered.remember(f"{i:04x}-3333-3333-3333", "192.0.2.9", 7000 + i)
    answered.remember(FP, *HONEST)  # again: the newest, so kept
    lines = (tmp_path / "lan_answered").read_text().splitlines()
    assert len(lines) == AnsweredEndpoints.LIMIT
    assert lines[-1] == f"{FP} 192.0.2.5 7777"
    again = AnsweredEndpoints()
    assert (FP, *HONEST) in again and (FP, "fe80::1", 7777) not in again
    assert len(again) == AnsweredEndpoints.LIMIT
    with pytest.raises(ValueError):
        answered.remember("not-a-key", *HONEST)
    with pytest.raises(ValueError):
        answered.remember(FP, HONEST[0], 0)


def test_a_bad_answered_file_counts_for_what_is_valid_in_it(tmp_path):
    path = tmp_path / "lan_answered"
    path.write_bytes(b"\xff\xfe garbage\n" + f"{FP} 192.0.2.5 7777\n".encode()
                     + b"0123-4567-89ab-cdef 192.0.2.5 99999\n"
                     + b"0123-4567-89ab-cdef not..an..ip 7777 extra\n")
    assert len(AnsweredEndpoints(path)) == 1 and (FP, *HONEST) in AnsweredEndpoints(path)
    path.write_bytes(f"{FP} 192.0.2.5 7777\n".encode() * 10_000)  # too big: empty
    assert len(AnsweredEndpoints(path)) == 0
    blocked = tmp_path / "file" / "lan_answered"
    (tmp_path / "file").write_text("not a folder")
    answered = AnsweredEndpoints(blocked)  # unreadable, unwritable: no error
    answered.remember(FP, *HONEST)
    assert (FP, *HONEST) in answered


@pytest.mark.skipif(not _loopback_multicast(), reason="no multicast on the loopback interface")
@pytest.mark.slow
async def test_the_own_query_hears_an_announcer_with_its_source_on_loopback():
    port = closed_port()
    fp = "5eed-5eed-5eed-5eed"
    announcer = Announcer(port, ["127.0.0.1"], LO)
    await announcer.start(TableFacts(name="sources", players=2, free=1, rules="x",
                                     fingerprint=fp))
    listener = SourceListener(QID)
    heard = trio.Event()

    def on_packet() -> None:
        if any(h.ad.port == port for h in listener.heard()):
            heard.set()

    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_listen_sources, listener, LO, on_packet)
            with trio.fail_after(30):
                await heard.wait()
            nursery.cancel_scope.cancel()
    finally:
        await announcer.close()
    [ours] = [h for h in listener.heard() if h.ad.port == port]
    assert ours.source == "127.0.0.1"
    assert ours.ad.fingerprint == fp and ours.ad.addresses == ("127.0.0.1",)
