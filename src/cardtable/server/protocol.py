"""What clients may send over the WebSocket, and the limits on it.

Client → server frames (JSON text)::

    {"type": "action", "action": {...}, "version": 12}   # version optional
    {"type": "ping"}
    {"type": "hint", "lang": "pl"}                        # what the hard bot would play
    {"type": "next_round"}                                # seen the round's end: go on
    {"type": "chat", "phrase": "good_luck"}               # or "text": server/chat.py

Server → client frames: ``{"type": "state", ...}`` on joining and after every change (the
seat's own view; while ``table.round_break`` is set, the final board of the round that
ended, and actions are refused until every human has sent ``next_round``);
``{"type": "coach", "version": ..., "played": ..., "better": ..., "texts": {...}}`` to a
coached seat after a move the strong bot judges clearly worse (the frames of a coached seat
carry its last note as ``coach``); ``{"type": "presence", "seats": [...]}`` when a seat
comes or goes; ``{"type": "hint", "version": ..., "action": ..., "reasons": [...], "text":
..., "texts": {...}}`` to the seat that asked (``text`` in the language asked, ``texts`` in
every language; a game's practice hint has no ``action``, only ``texts`` and what the game
adds: 7 słów's ``words``); ``{"type": "error", "code": ..., "message": ...}`` for anything refused;
``{"type": "pong"}``; ``{"type": "chat", "seat": n, "phrase"|"text": ...}`` (server/chat.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson

JSON = dict[str, Any]


class Encoded:
    """A part of a frame already encoded (what every seat's frame shares: the table's
    meta, the shared view), placed in each seat's frame as it is instead of being
    encoded again for every seat.

    >>> encode({"seat": 1, "table": Encoded(b'{"id":"t1"}')})
    '{"seat":1,"table":{"id":"t1"}}'
    """

    __slots__ = ("fragment", "text")

    def __init__(self, text: bytes) -> None:
        self.text = text
        self.fragment = orjson.Fragment(text)

    @classmethod
    def of(cls, value: Any) -> Encoded:
        return cls(encoded(value))


def _as_fragment(value: Any) -> orjson.Fragment:
    if isinstance(value, Encoded):
        return value.fragment
    raise TypeError(f"{type(value).__name__} is not JSON")


def _as_data(value: Any) -> Any:
    if isinstance(value, Encoded):  # the standard library reads the lone surrogates it wrote
        return json.loads(value.text)
    raise TypeError(f"{type(value).__name__} is not JSON")


def joined(first: Encoded, second: Encoded) -> Encoded:
    """Two encoded JSON objects with no key in common as one, their texts joined (as
    ``{**first, **second}`` would be, without decoding either).

    >>> joined(Encoded(b'{"a":1}'), Encoded(b'{"b":2}')).text
    b'{"a":1,"b":2}'
    >>> joined(Encoded(b'{}'), Encoded(b'{"b":2}')).text
    b'{"b":2}'
    """
    if first.text == b"{}":
        return second
    if second.text == b"{}":
        return first
    return Encoded(first.text[:-1] + b"," + second.text[1:])


#: a frame's JSON text as a listener is handed it: orjson's UTF-8 bytes where nothing
#: else was done with it (a table's socket sends them as they are), or a string
Text = str | bytes


def encode(frame: JSON) -> str:
    """A frame as JSON text (see :func:`encoded`)."""
    return encoded(frame).decode()


def encoded(frame: Any) -> bytes:
    """A frame as JSON text (compact, UTF-8, by orjson: several times faster than the
    standard library, which encodes every frame of every seat); text that is not valid
    UTF-8 (lone surrogates echoed back from a hostile message) is sent escaped instead of
    failing the socket, as is anything else orjson refuses (an integer past 64 bits).
    :class:`Encoded` parts go in as they are."""
    try:
        return orjson.dumps(frame, default=_as_fragment)
    except orjson.JSONEncodeError:
        pass
    try:  # a key that is not a string (a seat number): half as fast, so only when needed
        return orjson.dumps(frame, default=_as_fragment, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return _encode_slowly(frame).encode()


def _encode_slowly(frame: Any) -> str:
    text = json.dumps(frame, ensure_ascii=False, default=_as_data)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(frame, default=_as_data)
    return text


def error(code: str, message: str) -> JSON:
    return {"type": "error", "code": code, "message": message}


@dataclass(frozen=True)
class ClientMessage:
    type: str
    action: Any = None
    version: int | None = None
    lang: str = "en"


def decode(text: str, max_bytes: int) -> ClientMessage | JSON:
    """The message a frame carries, or the error frame to answer with."""
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        return error("too_large", f"a message may have at most {max_bytes} bytes")
    try:
        data = orjson.loads(text)  # every move of every seat is decoded here: the fast way
    except orjson.JSONDecodeError:
        # what orjson refuses and the standard library reads (a lone surrogate, as a chat
        # line cut inside an emoji has; NaN) gets the answer it always had
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            return error("bad_json", "a message must be one JSON object")
    if not isinstance(data, dict):
        return error("bad_message", "a message must be a JSON object")
    kind = data.get("type")
    if kind in ("ping", "next_round"):
        return ClientMessage(kind)
    if kind == "hint":
        lang = data.get("lang", "en")
        return ClientMessage("hint", lang=lang if lang in ("en", "pl", "ru") else "en")
    if kind == "chat":  # what is said is checked by server/chat.py
        return ClientMessage("chat", action={k: data.get(k) for k in ("phrase", "text")})
    if kind != "action":
        return error(
            "bad_message", "'type' must be 'action', 'next_round', 'hint', 'chat' or 'ping'"
        )
    return _action_message(data)


def _action_message(data: JSON) -> ClientMessage | JSON:
    version = data.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        return error("bad_message", "'version' must be an integer")
    if not isinstance(data.get("action"), dict):
        return error("bad_message", "'action' must be a JSON object")
    return ClientMessage("action", data["action"], version)
