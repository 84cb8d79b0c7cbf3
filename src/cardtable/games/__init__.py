"""Every game of cardtable; importing this package registers them."""

from cardtable.games import hanafuda

__all__ = ["hanafuda"]
