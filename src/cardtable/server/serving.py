"""The app under uvicorn, configured the same way by ``cardtable serve``, the tests and the
benchmarks: small WebSocket frames, no per-frame compression, request deadlines, and
forwarded addresses only from trusted proxies."""

from __future__ import annotations

from typing import Any

import uvicorn
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from cardtable.server.http_guards import with_request_deadline
from cardtable.server.settings import Settings
from cardtable.server.table_transport import TablePathFirst


def uvicorn_config(
    app: Any, settings: Settings, host: str, port: int, state: Any = None
) -> uvicorn.Config:
    """``state``: the app's state, where ``app`` is a wrapper around the app itself."""
    state = state if state is not None else getattr(app, "state", None)
    tables = state if getattr(state, "hub", None) is not None else None
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=with_request_deadline(AutoHTTPProtocol, settings.request_seconds),
        # a table's sockets on picows, any other on uvicorn's own
        ws=TablePathFirst.serving(tables) if tables is not None else "websockets-sansio",
        ws_max_size=65536,
        # frames are small JSON: compressing each costs more CPU than the bytes it saves
        ws_per_message_deflate=False,
        timeout_keep_alive=5,
        log_level="warning",
        # X-Forwarded-For counts only from the proxies the operator named (uvicorn would
        # trust it from 127.0.0.1 by default: any local client could pick its address)
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=list(settings.trusted_proxies),
    )
