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


def encode(frame: JSON) -> str:
    """A frame as JSON text (compact, UTF-8, by orjson: several times faster than the
    standard library, which encodes every frame of every seat); text that is not valid
    UTF-8 (lone surrogates echoed back from a hostile message) is sent escaped instead of
    failing the socket, as is anything else orjson refuses (an integer past 64 bits)."""
    try:
        return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return _encode_slowly(frame)


def _encode_slowly(frame: JSON) -> str:
    text = json.dumps(frame, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(frame)
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
