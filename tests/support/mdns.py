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
