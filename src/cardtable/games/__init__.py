"""Every game of cardtable; importing this package registers them."""

from cardtable.games import hanafuda, ohanami, siedem_slow

__all__ = ["hanafuda", "ohanami", "siedem_slow"]
