"""Every game of cardtable; importing this package registers them."""

from cardtable.games import hanafuda, ohanami

__all__ = ["hanafuda", "ohanami"]
