"""Multicast DNS answers made in memory, as a neighbour on the LAN would send them to a
browse's own query (PROTOCOL.md section 15): built with zeroconf's ``DNSOutgoing``, so
that what the library parses is a real packet, and fed to a
:class:`~chkobba_p2p._shell.discovery.SourceListener` with the source address of our
choosing (what a forged source, or a flood of them, looks like)."""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from zeroconf import DNSAddress, DNSOutgoing, DNSPointer, DNSService, DNSText
from zeroconf.const import (
    _CLASS_IN,
    _CLASS_UNIQUE,
    _FLAGS_AA,
    _FLAGS_QR_RESPONSE,
    _TYPE_A,
    _TYPE_AAAA,
    _TYPE_PTR,
    _TYPE_SRV,
    _TYPE_TXT,
)

from chkobba_p2p._shell.discovery import SERVICE_TYPE


def txt(**values: str) -> bytes:
    """A TXT record's strings: a length byte and ``key=value`` each."""
    out = b""
    for key, value in values.items():
        item = f"{key}={value}".encode()
        out += bytes([len(item)]) + item
    return out


def answer(query_id: int, name: str, fingerprint: str, port: int,
           addresses: Sequence[str], *, server: str | None = None) -> list[bytes]:
    """The packets of one announcement answering ``query_id``: PTR, SRV, TXT and the
    host name's A/AAAA records, as a responder sends them (records as additionals)."""
    instance = f"{name} ({fingerprint}).{SERVICE_TYPE}"
    server = server or f"chkobba-{fingerprint.replace('-', '')}.local."
    out = DNSOutgoing(_FLAGS_QR_RESPONSE | _FLAGS_AA, multicast=False, id_=query_id)
    out.add_answer_at_time(DNSPointer(SERVICE_TYPE, _TYPE_PTR, _CLASS_IN, 4500, instance), 0)
    unique = _CLASS_IN | _CLASS_UNIQUE
    out.add_additional_answer(DNSService(instance, _TYPE_SRV, unique, 120, 0, 0, port, server))
    out.add_additional_answer(DNSText(instance, _TYPE_TXT, unique, 4500, txt(
        v="1", name=name, players="2", free="1", rules="tunis", spectators="0",
        fp=fingerprint)))
    for address in addresses:
        ip = ipaddress.ip_address(address)
        kind = _TYPE_AAAA if ip.version == 6 else _TYPE_A
        out.add_additional_answer(DNSAddress(server, kind, unique, 120, ip.packed))
    return list(out.packets())


def crowded(query_id: int, tag: int, *, per_packet: int = 8, records: int = 512,
            address: str = "10.5.0.1") -> list[bytes]:
    """The packets of one source that says as much as a source may (``records`` records,
    the per-source cap): table after table (PTR, SRV, TXT), ``per_packet`` to a packet,
    all on one host name whose address each packet repeats.  Every table is valid and
    has its own key, so each is a whole announcement for the reader to build: what a
    crafted flood within every cap looks like (issue 42, ``heard()``'s cost)."""
    server = f"crowd-{tag}.local."
    unique = _CLASS_IN | _CLASS_UNIQUE
    packets: list[bytes] = []
    left, table = records, 0
    while left > 0:
        out = DNSOutgoing(_FLAGS_QR_RESPONSE | _FLAGS_AA, multicast=False, id_=query_id)
        out.add_additional_answer(DNSAddress(server, _TYPE_A, unique, 120,
                                             ipaddress.ip_address(address).packed))
        left -= 1
        for _ in range(per_packet):
            if left < 3:
                break
            fp = f"{tag % 65536:04x}-{table:04x}-cccc-cccc"
            instance = f"t{table} ({fp}).{SERVICE_TYPE}"
            out.add_answer_at_time(
                DNSPointer(SERVICE_TYPE, _TYPE_PTR, _CLASS_IN, 4500, instance), 0)
            out.add_additional_answer(
                DNSService(instance, _TYPE_SRV, unique, 120, 0, 0, 7000, server))
            out.add_additional_answer(DNSText(instance, _TYPE_TXT, unique, 4500, txt(
                v="1", name=f"t{table}", players="2", free="1", rules="tunis",
                spectators="0", fp=fp)))
            left -= 3
            table += 1
        if left < 4:
            left = 0
        packets.extend(out.packets())
    return packets
