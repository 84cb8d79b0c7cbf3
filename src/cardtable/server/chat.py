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

- The last :data:`HISTORY` things said are kept with the table (in memory, for as long as
  the table is), so a page that reloads or comes late reads them:
  ``POST /api/tables/ID/chat/lines {"seat": n, "key": K}`` answers them, the phrases as
  their ids (each reader says them in their own language) and free text only to a seat
  whose key opens it, as the socket sends it.

Client → server: ``{"type": "chat", "phrase": "good_luck"}`` or ``{"type": "chat",
"text": "..."}``; server → clients: ``{"type": "chat", "n": N, "seat": n, "phrase": ID}``
or ``{"type": "chat", "n": N, "seat": n, "text": "..."}``, ``N`` counting the table's
messages from 1 (a page merges what it heard with what it read, each once).
"""

from __future__ import annotations

import functools
import secrets
import unicodedata
import weakref
from collections import deque
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

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
#: the things said that a page coming late reads
HISTORY = 30


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
        #: people who know each other: a private table made by invitation, with people only
        #: (a rematch of a quick match is still between strangers)
        self.free_text = (
            not table.row.public and table.lesson is None and not from_quick_match(table)
        )
        #: this copy of the table's chat: numbers start again when the table is rebuilt (a
        #: restart, another process), and a page that hears a new epoch starts afresh
        self.epoch = secrets.token_hex(4)
        self.said = 0  # how many things were said here
        self.history: deque[JSON] = deque(maxlen=HISTORY)

    def keep(self, frame: JSON) -> JSON:
        """``frame`` numbered, and kept for pages that come later."""
        self.said += 1
        numbered = {"type": "chat", "n": self.said, "epoch": self.epoch, **frame}
        self.history.append(numbered)
        return numbered

    def lines(self, seated: bool) -> list[JSON]:
        """The kept lines a reader may read: free text only a seat."""
        return [line for line in self.history if seated or "text" not in line]


#: how far back a chain of rematches is followed (each a finished game of the same people)
REMATCH_DEPTH = 100


def from_quick_match(table: LiveTable) -> bool:
    """Whether ``table`` is a quick match, or a rematch (of a rematch…) of one."""
    store = table.hub.store
    table_id: str | None = table.id
    parent = table.row.rematch_of
    for _ in range(REMATCH_DEPTH):
        if table_id is None:
            return False
        if kept.quick_table(store, table_id) is not None:
            return True
        table_id = parent
        row = store.table(parent) if parent is not None else None
        parent = row.rematch_of if row is not None else None
    return False


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
        frame: JSON = {"seat": seat, "phrase": phrase}
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
        frame = {"seat": seat, "text": text}
        readers = [listener for listener in table.listeners if listener.seat is not None]
    else:
        raise TableError("a chat message is a phrase or a text", "bad_message")
    if not 0 <= seat < len(chat.buckets) or not chat.buckets[seat].allow():
        raise TableError("too many messages: wait a few seconds", "rate_limited")
    numbered = chat.keep(frame)
    await table.frames.send(readers, lambda _seat: numbered, is_state=False)


class Reader(BaseModel):
    """Who reads the kept lines: a seat and its key, or nobody's (a spectator)."""

    seat: int | None = Field(default=None, ge=0, le=16)
    key: str = Field(default="", max_length=64)


def router(hub: Hub) -> APIRouter:
    api = APIRouter(prefix="/api")

    @api.get("/tables/{table_id}/chat")
    async def chat_choices(table_id: str) -> JSON:
        """What a page offers at the table: the phrase ids, and whether free text goes."""
        table = await hub.table(table_id)
        return {"phrases": list(phrases(table.row.game)), "free_text": free_text_allowed(table)}

    @api.post("/tables/{table_id}/chat/lines")
    async def chat_lines(table_id: str, reader: Reader) -> JSON:
        """The last things said, as this reader may read them (a wrong key: a spectator's)."""
        table = await hub.table(table_id)
        seated = reader.seat is not None and table.roster.key_matches(reader.seat, reader.key)
        return {"lines": chat_of(table).lines(seated)}

    return api
