"""The two errors users of cardtable catch.

>>> from cardtable import IllegalAction
>>> issubclass(IllegalAction, ValueError)
True
"""

from __future__ import annotations


class CardtableError(Exception):
    """Base of every error cardtable raises on purpose."""


class IllegalAction(CardtableError, ValueError):
    """An action the rules do not allow now; the state it was applied to is unchanged.

    Its reason is what it was raised with: an engine's refusal is a
    :class:`cardtable.locales.Reason`, which also says it in the player's language.
    """

    @property
    def reason(self) -> str:
        """The refusal as raised (a ``Reason`` where the engine gave one by key)."""
        first = self.args[0] if self.args else ""
        return first if isinstance(first, str) else str(self)


class OptionError(CardtableError, ValueError):
    """A game option, preset or fixed deal that the game does not accept."""
