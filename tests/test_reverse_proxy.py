"""Forwarded addresses (issue 37, defect 2): X-Forwarded-For counts only from the proxies
the operator names, and the nginx configuration docs/web.md gives an operator
(docs/deploy/nginx-cardtable.conf) works as written: TLS, the client's own address for
the limits, WebSocket play. Everything on loopback: the clients speak from 127.0.0.2 and
127.0.0.3, nginx and the server listen on 127.0.0.1."""

from __future__ import annotations

import datetime
import http.client
import json
import re
import shutil
import socket
import ssl
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from cardtable.server.local_cluster import nginx_main
from cardtable.server.settings import Settings

from .server_helpers import eventually, server_thread

CONFIG = Path(__file__).resolve().parent.parent / "src/cardtable/docs/deploy/nginx-cardtable.conf"
GUARDED = Settings(bot_delay=0.0, socket_idle_seconds=3600)
TABLE = {"game": "koi-koi", "seats": ["human", "bot:random"]}


def test_forwarded_for_is_ignored_unless_the_proxy_is_trusted(tmp_path: Path) -> None:
    """A client that writes its own X-Forwarded-For is still counted as itself: before,
    each made-up address got its own limits (40 of 40 tables past the limit)."""
    with server_thread(f"sqlite:///{tmp_path / 'x.db'}", GUARDED) as (url, _app):
        host, port = url.removeprefix("http://").split(":")
        statuses = []
        for n in range(12):
            connection = http.client.HTTPConnection(host, int(port), timeout=30)
            headers = {"Content-Type": "application/json", "X-Forwarded-For": f"10.9.8.{n}"}
            connection.request("POST", "/api/tables", json.dumps(TABLE), headers)
            statuses.append(connection.getresponse().status)
            connection.close()
    assert statuses.count(201) == GUARDED.unstarted_tables, statuses
    assert set(statuses) == {201, 429}


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A throw-away certificate for localhost, made here (no download, no openssl call)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert, private = folder / "cert.pem", folder / "key.pem"
    cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    private.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert, private


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def site_config(app_port: int, tls_port: int, plain_port: int, folder: Path) -> str:
    """The documented file with this test's ports and certificate put in."""
    cert, key = self_signed(folder)
    text = CONFIG.read_text()
    replacements = [
        (r"server 127\.0\.0\.1:8000;", f"server 127.0.0.1:{app_port};"),
        (r"listen 443 ssl;", f"listen 127.0.0.1:{tls_port} ssl;"),
        (r"listen 80;", f"listen 127.0.0.1:{plain_port};"),
        (r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};"),
        (r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};"),
    ]
    for pattern, replacement in replacements:
        text, count = re.subn(pattern, replacement, text)
        assert count == 1, f"the documented config no longer has {pattern!r}"
    return text


@contextmanager
def nginx(site: str, folder: Path) -> Iterator[None]:
    """nginx in the foreground with ``site`` as its only server, all its files in ``folder``."""
    (folder / "site.conf").write_text(site)
    (folder / "nginx.conf").write_text(nginx_main(folder))
    process = subprocess.Popen(
        [shutil.which("nginx") or "nginx", "-p", str(folder), "-c", str(folder / "nginx.conf")],
        stderr=subprocess.PIPE,
    )
    try:
        yield
    finally:
        process.terminate()
        process.wait(10)


def https(
    port: int, method: str, path: str, source: str, body: Any = None, **headers: str
) -> tuple[int, Any]:
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    connection = http.client.HTTPSConnection(
        "127.0.0.1", port, timeout=30, context=context, source_address=(source, 0)
    )
    try:
        data = None if body is None else json.dumps(body)
        connection.request(method, path, data, {"Content-Type": "application/json", **headers})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        connection.close()


def wait_for(port: int) -> None:
    def answers() -> bool:
        try:
            https(port, "GET", "/api/health", "127.0.0.2")
        except OSError:
            return False
        return True

    eventually(answers, 20, "nginx starts")


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is installed by make test")
def test_behind_nginx_each_client_has_its_own_address_and_limits(tmp_path: Path) -> None:
    trusting = Settings(**{**GUARDED.__dict__, "trusted_proxies": ("127.0.0.1",)})
    tls_port, plain_port = free_port(), free_port()
    with server_thread(f"sqlite:///{tmp_path / 'p.db'}", trusting) as (url, _app):
        app_port = int(url.rsplit(":", 1)[1])
        with nginx(site_config(app_port, tls_port, plain_port, tmp_path), tmp_path):
            wait_for(tls_port)
            # one client spends its limit of tables nobody moved at...
            first = [
                https(tls_port, "POST", "/api/tables", "127.0.0.2", TABLE)[0] for _ in range(7)
            ]
            assert first == [201] * trusting.unstarted_tables + [429, 429]
            # ...another one is not held by it, and cannot spend it by naming the first
            posing = {"X-Forwarded-For": "127.0.0.2"}
            status, created = https(tls_port, "POST", "/api/tables", "127.0.0.3", TABLE, **posing)
            assert status == 201
            # WebSocket play goes through the proxy
            context = ssl.create_default_context()
            context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
            path = f"/ws/tables/{created['id']}?seat=0&key={created['key']}"
            with connect(f"wss://127.0.0.1:{tls_port}{path}", ssl=context) as ws:
                frame = json.loads(ws.recv(timeout=30))
                assert frame["type"] == "state" and frame["seat"] == 0
            # plain HTTP is sent to HTTPS
            plain = http.client.HTTPConnection("127.0.0.1", plain_port, timeout=10)
            plain.request("GET", "/")
            answer = plain.getresponse()
            assert answer.status == 301
            assert answer.getheader("Location", "").startswith("https://")
