"""Tables as Tor onion services (chkobba_p2p.tor), on a private Tor network on loopback
(the ``tor_network`` fixture, tests/tor_network.py: it never contacts the public Tor
network).  Skipped, saying why, where tor is not installed."""

from __future__ import annotations

import base64
import hashlib

import pytest

from chkobba_p2p.tor import (
    TOR_INSTALL_HINT,
    Tor,
    TorUnavailable,
    is_onion,
    new_onion_key,
    onion_address,
)


def test_an_onion_address_is_the_key_its_checksum_and_version_3():
    key = bytes(range(32))
    address = onion_address(key)
    assert is_onion(address) and address == onion_address(key)
    raw = base64.b32decode(address.removesuffix(".onion").upper())
    pub, check, version = raw[:32], raw[32:34], raw[34:]
    assert version == b"\x03"
    assert check == hashlib.sha3_256(b".onion checksum" + pub + b"\x03").digest()[:2]
    assert onion_address(new_onion_key()) != address
    assert not is_onion("example.onion") and not is_onion("127.0.0.1")


async def test_without_tor_the_error_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no tor binary to be found
    monkeypatch.delenv("CHKOBBA_TOR_CONTROL", raising=False)
    tor = Tor(probe=False, data_dir=tmp_path / "tor")
    assert not tor.available()
    with pytest.raises(TorUnavailable) as caught:
        await tor.ready()
    assert str(caught.value) == TOR_INSTALL_HINT and "apt install tor" in TOR_INSTALL_HINT
