"""A WebSocket client that sends whatever bytes a test wants (invalid UTF-8 in a text frame,
a frame cut short): the kind of input a browser never sends but an attacker can."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
from typing import Any

CONTINUATION, TEXT, BINARY, CLOSE = 0x0, 0x1, 0x2, 0x8


class RawSocket:
    def __init__(
        self,
        port: int,
        path: str,
        timeout: float = 10.0,
        connection: str = "Upgrade",
        extra: bytes = b"",
    ) -> None:
        """``connection``: the Connection header (Firefox's is "keep-alive, Upgrade");
        ``extra``: more header lines, as bytes (any bytes a client may send)."""
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: {connection}\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n"
            ).encode()
            + extra
            + b"\r\n"
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        self.status = int(head.split()[1])

    def send_frame(
        self, payload: bytes, opcode: int = TEXT, fin: bool = True, rsv: int = 0
    ) -> None:
        """One frame (``fin=False``: a fragment, more of the message to come; ``rsv``: the
        reserved bits, 0x40, 0x20, 0x10, which no extension here gives a meaning)."""
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        size, first = len(payload), (0x80 if fin else 0) | rsv
        if size < 126:
            head = struct.pack("!BB", first | opcode, 0x80 | size)
        elif size < 1 << 16:
            head = struct.pack("!BBH", first | opcode, 0x80 | 126, size)
        else:
            head = struct.pack("!BBQ", first | opcode, 0x80 | 127, size)
        self.sock.sendall(head + mask + masked)

    def _exactly(self, size: int) -> bytes:
        while len(self.buffer) < size:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:size], self.buffer[size:]
        return out

    def receive(self) -> tuple[int, bytes]:
        """The next frame: (opcode, payload); raises ConnectionError once closed."""
        first, second = self._exactly(2)
        size = second & 0x7F
        if size == 126:
            size = struct.unpack("!H", self._exactly(2))[0]
        elif size == 127:
            size = struct.unpack("!Q", self._exactly(8))[0]
        return first & 0x0F, self._exactly(size)

    def receive_json(self) -> dict[str, Any]:
        """The next text frame as JSON (a close frame raises ConnectionError)."""
        while True:
            opcode, payload = self.receive()
            if opcode == TEXT:
                return dict(json.loads(payload))
            if opcode == CLOSE:
                raise ConnectionError(f"closed by the server: {payload[:2].hex()}")

    def close(self) -> None:
        self.sock.close()
