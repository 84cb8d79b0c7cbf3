"""A whole cluster on one machine, for trying it and for the tests (``make cluster``,
``cardtable cluster``): Debian's PostgreSQL in a scratch folder, ``processes`` servers
started as ``cardtable serve --node n1`` ... on that database, and nginx in front with
``docs/deploy/nginx-cluster.conf`` (its ports put in, nothing else changed).

Everything listens on 127.0.0.1 only, and everything started is stopped on leaving,
Ctrl-C included. Only Debian's packages are used: postgresql and nginx.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

CONFIG = Path(str(resources.files("cardtable") / "docs" / "deploy" / "nginx-cluster.conf"))
#: the ports the file names: nginx's, then each process's
FILE_PORTS = (8100, 8101, 8102, 8103)


class ClusterError(RuntimeError):
    """A part of the local cluster could not start (what is missing is said)."""


def postgres_bin() -> Path:
    """The newest Debian PostgreSQL's programs, or those in the folder
    ``CARDTABLE_POSTGRES_BIN`` names (a machine without Debian's packages: a benchmark
    carries PostgreSQL's programs there, see benchmarks/device_web.sh)."""
    named = os.environ.get("CARDTABLE_POSTGRES_BIN")
    if named:
        if not (Path(named) / "initdb").exists():
            raise ClusterError(f"CARDTABLE_POSTGRES_BIN={named} holds no initdb")
        return Path(named)
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: p.parts)
    if not found:
        raise ClusterError("Debian's postgresql is missing: apt-get install postgresql")
    return found[-1].parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until(check: object, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise ClusterError(f"{what} did not happen within {seconds:g} s")
        time.sleep(0.1)


@contextmanager
def scratch_postgres(folder: Path) -> Iterator[str]:
    """A PostgreSQL server of its own in ``folder``, on a free port: its database URL."""
    binaries = postgres_bin()
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    data = folder / "postgres"
    data.mkdir()
    if as_postgres:
        shutil.chown(folder, "postgres")
        shutil.chown(data, "postgres")
    port = free_port()

    def run(*args: str) -> None:
        done = subprocess.run([*as_postgres, *args], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise ClusterError(f"{Path(args[0]).name} failed: {done.stderr.strip()[:500]}")

    run(str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres")
    run(
        str(binaries / "pg_ctl"), "-D", str(data), "-w", "-l", str(data / "log"),
        "-o", f"-p {port} -k {data} -c listen_addresses=127.0.0.1", "start",
    )  # fmt: skip
    try:
        host = ["-h", "127.0.0.1", "-p", str(port), "-U", "postgres"]
        run(str(binaries / "createdb"), *host, "cardtable")
        yield f"postgresql://postgres@127.0.0.1:{port}/cardtable"
    finally:
        subprocess.run(
            [*as_postgres, str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"],
            capture_output=True,
            check=False,
        )


def site_config(nginx_port: int, process_ports: list[int]) -> str:
    """The documented file with these ports in place of its own (one server line a
    process, in both upstreams)."""
    text = CONFIG.read_text()
    text, count = re.subn(
        rf"listen 127\.0\.0\.1:{FILE_PORTS[0]};", f"listen 127.0.0.1:{nginx_port};", text
    )
    if count != 1:
        raise ClusterError("nginx-cluster.conf no longer listens on 127.0.0.1:8100")
    line = re.compile(r"^( *)server 127\.0\.0\.1:810[1-9]( [^;]*);\n", re.MULTILINE)

    def servers(match: re.Match[str]) -> str:
        indent, rest = match.group(1), match.group(2)
        return "".join(f"{indent}server 127.0.0.1:{port}{rest};\n" for port in process_ports)

    # each upstream's first server line stands for all of them; the others go
    text = re.sub(r"^ *server 127\.0\.0\.1:810[2-9][^\n]*\n", "", text, flags=re.MULTILINE)
    return line.sub(servers, text)


def nginx_main(folder: Path) -> str:
    temp = folder / "nginx-temp"
    temp.mkdir(exist_ok=True)
    user = "user root;" if os.geteuid() == 0 else ""  # workers must read the scratch files
    return f"""{user}
daemon off; worker_processes 1; pid {folder}/nginx.pid; error_log {folder}/nginx-error.log;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {temp}/body; proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fcgi; uwsgi_temp_path {temp}/uwsgi; scgi_temp_path {temp}/scgi;
    include {folder}/site.conf;
}}
"""


def stopped(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    process.wait(10)


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except OSError:
        return False


@dataclass
class Node:
    """One ``cardtable serve`` process of the cluster."""

    name: str
    port: int
    command: list[str]
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(self.command, stdout=out, stderr=subprocess.STDOUT)
        wait_until(lambda: answers(f"{self.url}/api/health") or self.process_ended(), 60,
                   f"process {self.name} starts")  # fmt: skip
        if self.process_ended():
            raise ClusterError(f"process {self.name} ended: see {self.log}")

    def process_ended(self) -> bool:
        return self.process is None or self.process.poll() is not None

    def kill9(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill9()


@dataclass
class LocalCluster:
    """The running cluster: nginx's URL, the database's, and each process."""

    url: str
    database: str
    nodes: list[Node] = field(default_factory=list)

    def node(self, name: str) -> Node:
        return next(n for n in self.nodes if n.name == name)


@contextmanager
def local_cluster(
    processes: int = 3,
    port: int | None = None,
    folder: Path | None = None,
    serve_options: tuple[str, ...] = (),
) -> Iterator[LocalCluster]:
    """Start it all (nginx on ``port``, 8100 by default in the file; any free port when
    0), yield it, stop it all."""
    if shutil.which("nginx") is None:
        raise ClusterError("nginx is missing: apt-get install nginx")
    with ExitStack() as stack:
        if folder is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="cardtable-")))
        database = stack.enter_context(scratch_postgres(folder))
        nginx_port = FILE_PORTS[0] if port is None else (port or free_port())
        ports = (
            [FILE_PORTS[n + 1] for n in range(processes)]
            if port is None and processes <= 3
            else [free_port() for _ in range(processes)]
        )
        cluster = LocalCluster(f"http://127.0.0.1:{nginx_port}", database)
        for number, process_port in enumerate(ports, 1):
            name = f"n{number}"
            command = [
                sys.executable, "-m", "cardtable", "serve", "--db", database,
                "--host", "127.0.0.1", "--port", str(process_port), "--node", name,
                "--trusted-proxy", "127.0.0.1", *serve_options,
            ]  # fmt: skip
            node = Node(name, process_port, command, folder / f"{name}.log")
            cluster.nodes.append(node)
            stack.callback(node.stop)
            node.start()
        (folder / "site.conf").write_text(site_config(nginx_port, ports))
        (folder / "nginx.conf").write_text(nginx_main(folder))
        # -e: its log from the first moment in the scratch folder (a machine where nginx
        # was unpacked, not installed, has no /var/log/nginx)
        program = shutil.which("nginx") or "nginx"
        nginx = subprocess.Popen(
            [program, "-p", str(folder), "-c", str(folder / "nginx.conf"),
             "-e", str(folder / "nginx-error.log")],
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        stack.callback(stopped, nginx)
        wait_until(lambda: answers(f"{cluster.url}/api/health"), 30, "nginx answers")
        yield cluster
