"""chkobba-p2p: Chkobba played peer to peer, with a deal nobody controls and signed logs."""

__version__ = "0.1.0"
