"""Chat that needs no moderator: preset phrases for everyone, each shown in the reader's
language, and free text only between people who know each other.

- A **phrase** is a key of the locale catalogues: ``chat.common.ID`` for every game ("Good
  luck", "Well played"...) and ``chat.GAME.ID`` for a game's own (the game's package
  declares them in its ``locales``): the frame carries the id, each page says it in its
  own language. Every listener reads them, spectators too.
- **Free text** only at a private table made by invitation (not a public one, not quick
  match): at most :data:`MAX_TEXT` characters, sent to the seats only (never to
  spectators), its control characters dropped; the pages show it as text, never markup.
- A seat may say :data:`BURST` things at once, then one every :data:`EVERY_SECONDS`;
  spectators never send. Muting a seat is the reader's own choice, kept by their page.

Client → server: ``{"type": "chat", "phrase": "good_luck"}`` or ``{"type": "chat",
"text": "..."}``; server → clients: ``{"type": "chat", "seat": n, "phrase": ID}`` or
``{"type": "chat", "seat": n, "text": "..."}``.
"""

from __future__ import annotations

import functools
import unicodedata
import weakref
from typing import Any

from fastapi import APIRouter

from cardtable.locales import catalogue
from cardtable.server import match_store as kept
from cardtable.server.errors import TableError
from cardtable.server.hub import Hub
from cardtable.server.limits import TokenBucket
from cardtable.server.tables import LiveTable

JSON = dict[str, Any]

MAX_TEXT = 200
BURST = 5
EVERY_SECONDS = 3.0
COMMON = "common"


@functools.cache
def phrases(game_id: str) -> tuple[str, ...]:
    """The phrase ids said at a table of ``game_id``: everyone's, then the game's own."""
    keys = catalogue("en")
    found: list[str] = []
    for scope in (COMMON, game_id):
        prefix = f"chat.{scope}."
        found += [key.removeprefix("chat.") for key in keys if key.startswith(prefix)]
    return tuple(found)


def clean(text: str) -> str:
    """Free text without control or format characters (no bidi tricks), its white space
    one space each, trimmed."""
    kept_chars = (c for c in text if c.isspace() or unicodedata.category(c)[0] != "C")
    return " ".join("".join(kept_chars).split())


class TableChat:
    """One table's chat: each seat's rate, and whether free text is allowed there."""

    def __init__(self, table: LiveTable) -> None:
        self.buckets = [TokenBucket(1 / EVERY_SECONDS, BURST) for _ in table.seats]
        quick = kept.quick_table(table.hub.store, table.id)
        #: people who know each other: a private table made by invitation, with people only
        self.free_text = not table.row.public and quick is None and table.lesson is None


_chats: weakref.WeakKeyDictionary[LiveTable, TableChat] = weakref.WeakKeyDictionary()


def chat_of(table: LiveTable) -> TableChat:
    chat = _chats.get(table)
    if chat is None:
        chat = _chats[table] = TableChat(table)
    return chat


def free_text_allowed(table: LiveTable) -> bool:
    return chat_of(table).free_text


async def say(table: LiveTable, seat: int, said: Any) -> None:
    """``seat`` says ``said`` (``{"phrase": ID}`` or ``{"text": ...}``): checked, then sent
    to whoever may read it (a refusal raises TableError)."""
    chat = chat_of(table)
    if not isinstance(said, dict):
        raise TableError("a chat message is a phrase or a text", "bad_message")
    phrase, text = said.get("phrase"), said.get("text")
    if phrase is not None:
        if phrase not in phrases(table.row.game):
            raise TableError("no such phrase", "bad_phrase")
        frame: JSON = {"type": "chat", "seat": seat, "phrase": phrase}
        readers = list(table.listeners)
    elif isinstance(text, str):
        if not chat.free_text:
            raise TableError(
                "free text only at a private table between invited people: choose a phrase",
                "no_free_text",
            )
        text = clean(text)
        if not text or len(text) > MAX_TEXT:
            raise TableError(f"a message has 1 to {MAX_TEXT} characters", "bad_text")
        frame = {"type": "chat", "seat": seat, "text": text}
        readers = [listener for listener in table.listeners if listener.seat is not None]
    else:
        raise TableError("a chat message is a phrase or a text", "bad_message")
    if not 0 <= seat < len(chat.buckets) or not chat.buckets[seat].allow():
        raise TableError("too many messages: wait a few seconds", "rate_limited")
    await table.frames.send(readers, lambda _seat: frame, is_state=False)


def router(hub: Hub) -> APIRouter:
    api = APIRouter(prefix="/api")

    @api.get("/tables/{table_id}/chat")
    async def chat_choices(table_id: str) -> JSON:
        """What a page offers at the table: the phrase ids, and whether free text goes."""
        table = await hub.table(table_id)
        return {"phrases": list(phrases(table.row.game)), "free_text": free_text_allowed(table)}

    return api
