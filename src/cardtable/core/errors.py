"""The two errors users of cardtable catch.

>>> from cardtable import IllegalAction
>>> issubclass(IllegalAction, ValueError)
True
"""

from __future__ import annotations

from collections.abc import Iterable


class CardtableError(Exception):
    """Base of every error cardtable raises on purpose.

    ``given``: what a user typed that the message quotes. The command line says it back
    (it helps to see a typo); a server answering a client leaves it out
    (:meth:`public_message`), since echoing a client's text back is never needed.

    >>> error = OptionError("unknown bot '<b>' for koi-koi; valid bots: easy", given=["<b>"])
    >>> error.public_message()
    'unknown bot for koi-koi; valid bots: easy'
    >>> OptionError("'<b>' is no card; valid: 1, 3", given=["<b>", 3]).public_message()
    'the value given is no card; valid: 1, 3'
    """

    def __init__(
        self, *args: object, given: Iterable[object] = (), public: str | None = None
    ) -> None:
        super().__init__(*args)
        self.given = tuple(given)
        self.public = public  # the whole message a client gets, where it is not the same

    def public_message(self) -> str:
        if self.public is not None:
            return self.public
        text = str(self)
        for value in self.given:
            text = text.replace(f"={value!r}", "")  # option rounds=5 -> option rounds
            if isinstance(value, str):  # quoted: it cannot be part of the valid values' list
                text = text.replace(f" {value!r}", "").replace(repr(value), "the value given")
        return text


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
