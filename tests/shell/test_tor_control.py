"""Tor's control port cannot be made to leak a file (issue 42, item 4), and the onion key
is the owner's alone.

A fake control port on loopback (a trio server in the test, written from Tor's
control-spec: PROTOCOLINFO, AUTHCHALLENGE SAFECOOKIE, AUTHENTICATE) records every byte
the client sends it.  A program squatting on the probed port 127.0.0.1:9051 and naming
the player's secret key as its "cookie" gets none of it; a real-looking SAFECOOKIE
exchange completes with the hashes the spec gives."""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import secrets
from pathlib import Path

import pytest
import trio

from chkobba_p2p._shell import tor as tor_module
from chkobba_p2p._shell.tor import Tor, TorError, _Control, load_onion_key

SERVER_KEY = b"Tor safe cookie authentication server-to-controller hash"
CLIENT_KEY = b"Tor safe cookie authentication controller-to-server hash"


class FakeControlPort:
    """A control port on 127.0.0.1 offering ``methods`` and naming ``cookie_path``.

    ``cookie``: what it believes the cookie is (a squatter does not know the file's
    bytes: None, and it answers AUTHCHALLENGE with a made-up hash).  Everything received
    is kept in :attr:`received`; :attr:`authenticated` tells whether a client proved
    it knew the cookie."""

    def __init__(self, methods: str, cookie_path: Path, cookie: bytes | None = None) -> None:
        self.methods = methods
        self.cookie_path = cookie_path
        self.cookie = cookie
        self.received = bytearray()
        self.lines: list[str] = []
        self.authenticated = False
        self.exchange: dict[str, bytes] = {}
        self.address = ""

    async def serve(self, nursery: trio.Nursery) -> None:
        listeners = await nursery.start(
            functools.partial(trio.serve_tcp, self._handle, 0, host="127.0.0.1"))
        self.address = f"127.0.0.1:{listeners[0].socket.getsockname()[1]}"

    async def _handle(self, stream: trio.SocketStream) -> None:
        buffer = b""
        async with stream:
            while True:
                chunk = await stream.receive_some(4096)
                if not chunk:
                    return
                self.received += chunk
                buffer += chunk
                while b"\r\n" in buffer:
                    raw, buffer = buffer.split(b"\r\n", 1)
                    line = raw.decode("utf-8", "replace")
                    self.lines.append(line)
                    await stream.send_all(self._answer(line).encode())

    def _answer(self, line: str) -> str:
        verb, _, rest = line.partition(" ")
        if verb == "PROTOCOLINFO":
            return (f"250-PROTOCOLINFO 1\r\n250-AUTH METHODS={self.methods} "
                    f'COOKIEFILE="{self.cookie_path}"\r\n250-VERSION Tor="0.4.8.10"\r\n'
                    "250 OK\r\n")
        if verb == "AUTHCHALLENGE":
            client_nonce = bytes.fromhex(rest.split()[1])
            server_nonce = secrets.token_bytes(32)
            known = self.cookie if self.cookie is not None else secrets.token_bytes(32)
            material = known + client_nonce + server_nonce
            self.exchange = {"client_nonce": client_nonce, "server_nonce": server_nonce,
                             "material": material}
            server_hash = hmac.new(SERVER_KEY, material, hashlib.sha256).hexdigest()
            return (f"250 AUTHCHALLENGE SERVERHASH={server_hash.upper()} "
                    f"SERVERNONCE={server_nonce.hex().upper()}\r\n")
        if verb == "AUTHENTICATE":
            if "material" in self.exchange and self.cookie is not None:
                expected = hmac.new(CLIENT_KEY, self.exchange["material"],
                                    hashlib.sha256).hexdigest()
                self.authenticated = hmac.compare_digest(rest.lower(), expected)
            elif self.cookie is not None:
                self.authenticated = rest.lower() == self.cookie.hex()
            return "250 OK\r\n" if self.authenticated else \
                "515 Authentication failed\r\n"
        if verb == "GETINFO":
            return "250-status/bootstrap-phase=NOTICE BOOTSTRAP PROGRESS=100\r\n250 OK\r\n"
        return "510 Unrecognized command\r\n"


def _secret(folder: Path, size: int = 32) -> tuple[Path, bytes]:
    """The player's secret: a 0600 file of ``size`` bytes (32: as long as a cookie)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "identity.key"
    data = secrets.token_bytes(size)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return path, data


def _no_byte_of(secret: bytes, sent: bytes) -> None:
    assert secret not in sent and secret.hex().encode() not in sent.lower()
    assert sent == b"PROTOCOLINFO 1\r\n", sent  # nothing at all after the question


@pytest.mark.slow
async def test_a_squatter_on_the_probed_port_offering_cookie_gets_no_byte(
        tmp_path, monkeypatch, caplog):
    path, secret = _secret(tmp_path / "home")
    fake = FakeControlPort("COOKIE", path)
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))  # no tor to start instead
    monkeypatch.delenv("CHKOBBA_TOR_CONTROL", raising=False)
    monkeypatch.delenv("CHKOBBA_TOR_COOKIE", raising=False)
    async with trio.open_nursery() as nursery:
        await fake.serve(nursery)
        monkeypatch.setattr(tor_module, "PROBED_CONTROL", fake.address)
        tor = Tor(data_dir=tmp_path / "tor")  # probes, as chkobba does by default
        with pytest.raises(TorError) as caught:
            await tor.ready()
        nursery.cancel_scope.cancel()
    message = str(caught.value)
    assert "\n" not in message and "offers only plain COOKIE" in message, message
    assert "was only probed" in message and fake.address in message
    _no_byte_of(secret, bytes(fake.received))
    assert not fake.authenticated
    assert any("offers only plain COOKIE" in r.getMessage() for r in caplog.records)


@pytest.mark.slow
async def test_a_probed_port_offering_cookie_is_refused_even_for_a_real_cookie_there(
        tmp_path):
    # The cookie of a tor the user named: still not sent to a port nobody named.
    cookie_dir = tmp_path / "tor-data"
    path, secret = _secret(cookie_dir)
    fake = FakeControlPort("COOKIE", path, cookie=secret)
    async with trio.open_nursery() as nursery:
        await fake.serve(nursery)
        with pytest.raises(TorError, match="offers only plain COOKIE"):
            await _Control.open(fake.address, probed=True, trusted=[cookie_dir])
        nursery.cancel_scope.cancel()
    _no_byte_of(secret, bytes(fake.received))


@pytest.mark.slow
async def test_a_named_port_gets_plain_cookie_only_from_a_tor_folder_named_here(tmp_path):
    secret_path, secret = _secret(tmp_path / "home")
    cookie_dir = tmp_path / "tor-data"
    cookie_dir.mkdir()
    cookie = secrets.token_bytes(32)
    (cookie_dir / "control_auth_cookie").write_bytes(cookie)
    (cookie_dir / "link").symlink_to(secret_path)  # inside by name, elsewhere really
    big = cookie_dir / "big"
    big.write_bytes(secrets.token_bytes(33))
    async with trio.open_nursery() as nursery:
        # Outside the named folder, through a link out of it, or not 32 bytes: refused,
        # and nothing is sent after PROTOCOLINFO.
        for named, trusted in [(secret_path, []), (secret_path, [cookie_dir]),
                               (cookie_dir / "link", [cookie_dir]), (big, [cookie_dir]),
                               (Path("/dev/zero"), [Path("/dev")])]:
            fake = FakeControlPort("COOKIE", named)
            await fake.serve(nursery)
            with pytest.raises(TorError) as caught:
                await _Control.open(fake.address, trusted=trusted)
            assert "\n" not in str(caught.value)
            _no_byte_of(secret, bytes(fake.received))
        # The real cookie, in the folder the user named: sent, and the port accepts it.
        fake = FakeControlPort("COOKIE", cookie_dir / "control_auth_cookie", cookie=cookie)
        await fake.serve(nursery)
        control = await _Control.open(fake.address, trusted=[cookie_dir])
        await control.aclose()
        assert fake.authenticated and fake.lines[-1] == f"AUTHENTICATE {cookie.hex()}"
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("probed", [False, True])
@pytest.mark.slow
async def test_safecookie_completes_with_the_hashes_of_the_spec(tmp_path, probed):
    cookie_dir = tmp_path / "tor-data"
    cookie_dir.mkdir()
    cookie = secrets.token_bytes(32)
    (cookie_dir / "control_auth_cookie").write_bytes(cookie)
    fake = FakeControlPort("COOKIE,SAFECOOKIE", cookie_dir / "control_auth_cookie",
                           cookie=cookie)
    async with trio.open_nursery() as nursery:
        await fake.serve(nursery)
        control = await _Control.open(fake.address, probed=probed, trusted=[cookie_dir])
        try:
            assert "PROGRESS=100" in await control.getinfo("status/bootstrap-phase")
        finally:
            await control.aclose()
        nursery.cancel_scope.cancel()
    assert fake.authenticated
    assert [x.split(" ")[0] for x in fake.lines] == [
        "PROTOCOLINFO", "AUTHCHALLENGE", "AUTHENTICATE", "GETINFO"]
    # control-spec 3.24: AUTHCHALLENGE SAFECOOKIE <32-byte client nonce, hex>, then
    # AUTHENTICATE HMAC-SHA256(controller-to-server key, cookie | client nonce | server
    # nonce); the cookie itself never crosses.
    assert fake.lines[1] == f"AUTHCHALLENGE SAFECOOKIE {fake.exchange['client_nonce'].hex()}"
    assert len(fake.exchange["client_nonce"]) == 32
    material = cookie + fake.exchange["client_nonce"] + fake.exchange["server_nonce"]
    assert fake.lines[2] == ("AUTHENTICATE "
                             + hmac.new(CLIENT_KEY, material, hashlib.sha256).hexdigest())
    assert cookie not in fake.received and cookie.hex().encode() not in fake.received


@pytest.mark.slow
async def test_a_safecookie_squatter_that_cannot_prove_the_cookie_gets_nothing(tmp_path):
    # It names the player's 32-byte secret as its cookie; not knowing the bytes, it
    # cannot give the server hash, and the client stops before AUTHENTICATE.
    secret_path, secret = _secret(tmp_path / "home")
    fake = FakeControlPort("SAFECOOKIE", secret_path)
    async with trio.open_nursery() as nursery:
        await fake.serve(nursery)
        with pytest.raises(TorError, match="does not know Tor's cookie"):
            await _Control.open(fake.address)
        nursery.cancel_scope.cancel()
    assert [x.split(" ")[0] for x in fake.lines] == ["PROTOCOLINFO", "AUTHCHALLENGE"]
    assert secret not in fake.received and secret.hex().encode() not in fake.received.lower()


@pytest.mark.slow
async def test_a_probed_safecookie_port_naming_a_file_outside_tor_folders_is_not_read(
        tmp_path):
    secret_path, secret = _secret(tmp_path / "home")
    fake = FakeControlPort("SAFECOOKIE", secret_path)
    async with trio.open_nursery() as nursery:
        await fake.serve(nursery)
        with pytest.raises(TorError, match="outside any Tor data directory"):
            await _Control.open(fake.address, probed=True)
        nursery.cancel_scope.cancel()
    _no_byte_of(secret, bytes(fake.received))


# -- the onion key ----------------------------------------------------------------------

def test_an_onion_key_readable_by_others_is_refused_and_kept(tmp_path):
    path = tmp_path / "host.onion-key"
    key = secrets.token_bytes(32)
    path.write_bytes(key)
    for mode in (0o640, 0o604, 0o644):
        path.chmod(mode)
        with pytest.raises(TorError) as caught:
            load_onion_key(path)
        assert "\n" not in str(caught.value) and "chmod 600" in str(caught.value)
        assert path.read_bytes() == key
    path.chmod(0o600)
    assert load_onion_key(path) == key


@pytest.mark.parametrize("size", [0, 31, 33, 64])
def test_an_onion_key_of_the_wrong_size_is_refused_not_replaced(tmp_path, size):
    path = tmp_path / "host.onion-key"
    data = secrets.token_bytes(size)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    with pytest.raises(TorError) as caught:
        load_onion_key(path)
    assert "\n" not in str(caught.value) and f"{size} bytes, not 32" in str(caught.value)
    assert path.read_bytes() == data  # the table's onion address does not change silently


def test_a_missing_onion_key_is_made_owner_only(tmp_path):
    path = tmp_path / "state" / "host.onion-key"
    key = load_onion_key(path)
    assert len(key) == 32 and path.stat().st_mode & 0o777 == 0o600
    assert load_onion_key(path) == key


def test_an_onion_address_and_the_key_add_onion_takes_are_the_specs_bytes():
    """rend-spec-v3's address (key, SHA3-256 checksum, version) and the expanded Ed25519
    secret ADD_ONION takes (SHA-512 of the seed, clamped), hashed by cryptography: the
    same as before, when hashlib hashed them (an onion address is what friends type)."""
    seed = bytes(range(32))
    assert tor_module.onion_address(seed) == (
        "aoqqpp7tzyil4hlq3umoos6atft6jvrqtosq2xy53sdgiesvgg4bqead.onion")
    assert tor_module._expanded_key(seed) == (
        "OJTupJxYCu+BaTV2K+BJVZ1tFEDe3hLmoSXxhB//jm+p"
        "1xhio+V0a1cb49GHsAQQRvUuvYUMfL1f3o7jhHO2SQ==")
