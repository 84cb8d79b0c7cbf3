"""The two errors users of cardtable catch.

>>> from cardtable import IllegalAction
>>> issubclass(IllegalAction, ValueError)
True
"""

from __future__ import annotations


class CardtableError(Exception):
    """Base of every error cardtable raises on purpose."""


class IllegalAction(CardtableError, ValueError):
    """An action the rules do not allow now; the state it was applied to is unchanged."""


class OptionError(CardtableError, ValueError):
    """A game option, preset or fixed deal that the game does not accept."""
