"""Helpers shared by the tests (not tests): `from support.net import host_config`."""
