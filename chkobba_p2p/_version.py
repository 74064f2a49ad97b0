"""The version of chkobba-p2p (below every module that writes it into a file)."""

__version__ = "0.1.0"
