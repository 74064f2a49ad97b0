"""The link layer's sans-IO core (PROTOCOL.md 5, 12, 13, 17, 18).

Everything between two peers that is not the signed transcript: who may connect and
for how long (admission), the greeting, the lobby, spectators, allowances, rematch.
Like h11 is to HTTP, these modules do no I/O and read no clock: the trio shell
(:mod:`chkobba_p2p._shell.net`) feeds them messages, connections opened and closed, and the
time, and carries out what they return (messages to send, connections to close,
events for the controller).  ``tests/link/test_link_pure.py`` holds them to that: no module
here imports trio, socket, time or asyncio.
"""
