"""A private Tor network on loopback, for the tests (and benchmarks/tor.py).

``TestingTorNetwork 1``: three directory authorities (keys from ``tor-gencert``) and
three relays, every one on 127.0.0.1, plus one client tor with a SOCKS and a control port
that the tests use as "a running tor".  Every torrc names only the local authorities
(``DirAuthority``, ``UseDefaultFallbackDirs 0``, no bridges, ``ClientUseIPv6 0``): no
process of it ever contacts the public Tor network.  The shape follows what chutney's
templates configure for a test network (votes every few seconds, flags given by vote).

    net = TorNetwork(folder); net.start(); ...; net.stop()
    net.client_control, net.client_socks   # "HOST:PORT" of the running client tor
    net.client_control_socket              # its control port as a socket's path
    net.client_config()                    # torrc lines for another tor on this network
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from pathlib import Path

AUTHORITIES = 3
RELAYS = 3


def tor_missing() -> str | None:
    """Why this machine cannot run the network (None: it can)."""
    for prog in ("tor", "tor-gencert"):
        if shutil.which(prog) is None:
            return f"{prog} is not installed (apt install tor)"
    return None


def _free_ports(n: int) -> list[int]:
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


_COMMON = [
    "TestingTorNetwork 1",
    "PathsNeededToBuildCircuits 0.67",
    "TestingDirAuthVoteExit *",
    "TestingDirAuthVoteHSDir *",
    "TestingDirAuthVoteGuard *",
    "TestingMinExitFlagThreshold 0",
    "V3AuthNIntervalsValid 2",
    "UseDefaultFallbackDirs 0",
    "UseBridges 0",
    "ClientUseIPv6 0",
    "ClientUseIPv4 1",
    "ShutdownWaitLength 0",
    "SafeLogging 0",
    "LogTimeGranularity 1",
    "AvoidDiskWrites 1",
]


class TorNetwork:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.processes: list[subprocess.Popen[bytes]] = []
        self.authority_lines: list[str] = []
        self.client_control = ""
        self.client_control_socket = ""  # the same control port, as a socket's path
        self.client_socks = ""
        self.bootstrap_seconds = 0.0

    def client_config(self) -> list[str]:
        """torrc lines for a client of this network (a private tor the code starts)."""
        return [*_COMMON, *self.authority_lines]

    def _tor(self, folder: Path, lines: list[str]) -> subprocess.Popen[bytes]:
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o700)
        torrc = folder / "torrc"
        torrc.write_text("\n".join([f"DataDirectory {folder}",
                                    f"Log notice file {folder / 'notice.log'}",
                                    *lines, ""]))
        proc = subprocess.Popen(["tor", "-f", str(torrc), "--ignore-missing-torrc"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        self.processes.append(proc)
        return proc

    def start(self, timeout: float = 240.0) -> None:
        started = time.monotonic()
        auths = []
        for i in range(AUTHORITIES):
            folder = self.folder / f"auth{i}"
            keys = folder / "keys"
            keys.mkdir(parents=True, exist_ok=True)
            folder.chmod(0o700)
            orport, dirport = _free_ports(2)
            subprocess.run(
                ["tor-gencert", "--create-identity-key", "--passphrase-fd", "0",
                 "-i", str(keys / "authority_identity_key"),
                 "-s", str(keys / "authority_signing_key"),
                 "-c", str(keys / "authority_certificate"),
                 "-m", "12", "-a", f"127.0.0.1:{dirport}"],
                input=b"\n", check=True, capture_output=True, cwd=folder)
            v3ident = next(line.split()[1] for line in
                           (keys / "authority_certificate").read_text().splitlines()
                           if line.startswith("fingerprint "))
            out = subprocess.run(
                ["tor", "--ignore-missing-torrc", "-f", str(folder / "none"),
                 "--orport", "1", "--datadirectory", str(folder), "--list-fingerprint"],
                check=True, capture_output=True, text=True).stdout
            fingerprint = "".join(out.strip().splitlines()[-1].split()[1:])
            assert len(fingerprint) == 40, out
            self.authority_lines.append(
                f"DirAuthority auth{i} orport={orport} no-v2 v3ident={v3ident} "
                f"127.0.0.1:{dirport} {fingerprint}")
            auths.append((folder, orport, dirport, i))
        relay = ["Address 127.0.0.1", "AssumeReachable 1", "ExitRelay 0", "SocksPort 0",
                 "ServerDNSDetectHijacking 0", "ServerDNSTestAddresses",
                 "PublishServerDescriptor 1"]
        for folder, orport, dirport, i in auths:
            self._tor(folder, [*_COMMON, *self.authority_lines, *relay,
                               f"Nickname auth{i}", f"ORPort 127.0.0.1:{orport}",
                               f"DirPort 127.0.0.1:{dirport}",
                               "AuthoritativeDirectory 1", "V3AuthoritativeDirectory 1",
                               "ContactInfo auth@test.invalid",
                               "TestingV3AuthInitialVotingInterval 6",
                               "TestingV3AuthInitialVoteDelay 2",
                               "TestingV3AuthInitialDistDelay 2",
                               "V3AuthVotingInterval 10", "V3AuthVoteDelay 2",
                               "V3AuthDistDelay 2"])
        for i in range(RELAYS):
            orport, dirport = _free_ports(2)
            self._tor(self.folder / f"relay{i}",
                      [*_COMMON, *self.authority_lines, *relay, f"Nickname relay{i}",
                       f"ORPort 127.0.0.1:{orport}", f"DirPort 127.0.0.1:{dirport}"])
        control, socks = _free_ports(2)
        client = self.folder / "client"
        self._tor(client, [*_COMMON, *self.authority_lines,
                           f"SocksPort 127.0.0.1:{socks}", f"ControlPort 127.0.0.1:{control}",
                           f"ControlSocket {client / 'control'}", "CookieAuthentication 1"])
        self.client_control = f"127.0.0.1:{control}"
        self.client_control_socket = str(client / "control")
        self.client_socks = f"127.0.0.1:{socks}"
        log = client / "notice.log"
        while time.monotonic() - started < timeout:
            dead = [p for p in self.processes if p.poll() is not None]
            if dead:
                self.stop()
                raise RuntimeError(f"a tor of the test network exited ({dead[0].args})")
            if log.exists() and "Bootstrapped 100%" in log.read_text(errors="replace"):
                self.bootstrap_seconds = time.monotonic() - started
                return
            time.sleep(0.25)  # waiting for another process: nothing to await here
        self.stop()
        raise RuntimeError(f"the test Tor network did not bootstrap within {timeout:g} s")

    def stop(self) -> None:
        for proc in self.processes:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        self.processes = []
