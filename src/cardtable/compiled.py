"""The compiled engine: the hanafuda hot path built by mypyc from the same typed sources.

The modules of :data:`HOT_PATH` are ordinary Python. ``make test`` and ``pip install``
also compile them to C extensions (:func:`build`, called by ``hatch_build.py``); Python
then imports the extension before the source. The rules stay in one place, readable, and
the source runs as it is wherever no compiler was at hand (with librt, mypyc's runtime
library, installed as a dependency: ``core.rng`` imports its ``vec``).

A compiled module is used only when every one of them was built from the sources now on
disk (the build writes each source's digest to ``_compiled.json``). Otherwise, or when
``CARDTABLE_PURE_PYTHON=1`` is set, :func:`choose` makes Python read the sources: a
compiled module older than its source would play by old rules, and a mix of compiled and
source modules would give two copies of one module's globals.

This module imports only the standard library: the build hook loads it on its own, and
``make test`` runs it as a script to rebuild what changed.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

#: the modules compiled, in import order (a compiled class's base class is compiled too)
HOT_PATH = (
    "cardtable.core.frozen",
    "cardtable.core.results",
    "cardtable.core.rng",
    "cardtable.core.state",
    "cardtable.games.hanafuda.deck",
    "cardtable.games.hanafuda.capture",
    "cardtable.games.hanafuda.actions",
    "cardtable.games.hanafuda.yaku",
    "cardtable.games.hanafuda.scoring",
    "cardtable.games.hanafuda.dealing",
    "cardtable.games.hanafuda.events",
    "cardtable.games.hanafuda.fishing",
    "cardtable.games.hanafuda.observation",
    "cardtable.games.hanafuda.koikoi",
    "cardtable.games.hanafuda.bakappana",
    "cardtable.games.hanafuda.hana_awase",
    "cardtable.games.ohanami.deck",
    "cardtable.games.ohanami.scoring",
    "cardtable.games.ohanami.game",
    "cardtable.games.ohanami.bots",
    # the search's own loop: every iteration walks the tree before the engine plays out
    "cardtable.agents.ismcts",
)
#: the name of the shared library that holds the compiled modules' code
GROUP = "cardtable_hot"
PACKAGE = Path(__file__).resolve().parent
MANIFEST = PACKAGE / "_compiled.json"
PURE_ENV = "CARDTABLE_PURE_PYTHON"

#: what :func:`choose` decided: "compiled", or why the sources run
ENGINE = "not chosen"


def source_of(module: str, package: Path = PACKAGE) -> Path:
    return package.parent.joinpath(*module.split(".")).with_suffix(".py")


def extension_of(module: str, package: Path = PACKAGE) -> Path | None:
    """The module's compiled file for this Python, if there is one."""
    base = source_of(module, package).with_suffix("")
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if (found := base.with_name(base.name + suffix)).exists():
            return found
    return None


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _stale(package: Path = PACKAGE) -> list[str]:
    """The hot-path modules whose compiled form is missing or older than the source."""
    try:
        built = json.loads((package / MANIFEST.name).read_text())["sources"]
    except (OSError, ValueError, KeyError):
        return list(HOT_PATH)
    return [
        module
        for module in HOT_PATH
        if built.get(module) != digest(source_of(module, package))
        or extension_of(module, package) is None
    ]


class _Sources(importlib.abc.MetaPathFinder):
    """Finds the hot-path modules as source files, before the extensions beside them."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in HOT_PATH:
            return None
        return importlib.util.spec_from_file_location(fullname, source_of(fullname))


def pure_asked() -> bool:
    """``CARDTABLE_PURE_PYTHON`` asks for the Python source (any value but empty or 0)."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def choose() -> str:
    """Decide once, before any hot-path module is imported, whether the compiled modules
    run (``cardtable/__init__`` calls this first)."""
    global ENGINE  # noqa: PLW0603 - the one decision of the process
    if ENGINE != "not chosen":
        return ENGINE
    compiled = extension_of(f"{GROUP}__mypyc") is not None
    if pure_asked():
        ENGINE = f"source ({PURE_ENV} is set)"
    elif not compiled:
        ENGINE = "source (not compiled)"
    elif stale := _stale():
        ENGINE = "source (compiled before a change to " + ", ".join(stale) + ")"
        warnings.warn(
            f"cardtable: the compiled engine is older than {stale[0]}; running the Python "
            "source (`make compiled` rebuilds it)",
            stacklevel=2,
        )
    else:
        ENGINE = "compiled"
    if ENGINE != "compiled" and compiled:
        sys.meta_path.insert(0, _Sources())
    return ENGINE


def build(root: Path, *, quiet: bool = True) -> list[Path]:
    """Compile :data:`HOT_PATH` in place under ``root/src`` and write the manifest; the
    files made (the shared library first). Needs mypy (mypyc), setuptools and a C
    compiler."""
    from mypyc.build import mypycify  # noqa: PLC0415 - build-time only
    from setuptools import Distribution  # noqa: PLC0415

    src = (root / "src").resolve()
    package = src / "cardtable"
    sources = [str(source_of(module, package).relative_to(src)) for module in HOT_PATH]
    digests = {module: digest(source_of(module, package)) for module in HOT_PATH}
    here = Path.cwd()
    os.chdir(src)  # mypyc names the modules by their paths from here
    try:
        extensions = mypycify(
            [
                f"--config-file={root / 'pyproject.toml'}",
                f"--cache-dir={root / 'build' / 'mypy-cache'}",
                # the modules compiled must type-check; the rest of the package is only read
                # for their types, and a build environment lacks its other dependencies
                "--ignore-missing-imports",
                "--follow-imports=silent",
                *sources,
            ],
            opt_level="3",
            group_name=GROUP,
            target_dir=str(root / "build" / "mypyc"),
        )
        dist = Distribution({"name": "cardtable-compiled", "ext_modules": extensions})
        command = dist.get_command_obj("build_ext")
        command.build_lib = str(root / "build" / "lib")
        command.build_temp = str(root / "build" / "temp")
        dist.verbose = not quiet
        dist.run_command("build_ext")
        made = [_install(root, command, module.name, src) for module in extensions]
    finally:
        os.chdir(here)
    (package / MANIFEST.name).write_text(json.dumps({"sources": digests}, indent=1) + "\n")
    return sorted(made, key=lambda path: GROUP not in path.name)


def _install(root: Path, command: Any, name: str, src: Path) -> Path:
    """Move one built module beside its source by a rename: a process running the old
    engine keeps its mapped file whole (written over in place, it could die of SIGBUS
    when a test run or a server uses the engine during a rebuild)."""
    relative = str(command.get_ext_filename(name))
    built, target = root / "build" / "lib" / relative, src / relative
    staged = target.with_name(f".{target.name}.{os.getpid()}")
    shutil.copy2(built, staged)
    os.replace(staged, target)
    return target.resolve()


def main(argv: Sequence[str] = ()) -> None:
    """``python src/cardtable/compiled.py [--if-stale]``: build the compiled engine of this
    checkout (``--if-stale``: only when a hot-path source changed since the last build)."""
    if "--if-stale" in argv and not _stale():
        print("the compiled engine is up to date")
        return
    made = build(PACKAGE.parent.parent, quiet=False)
    print(f"compiled {len(made) - 1} modules of the hot path into {made[0].name}")


if __name__ == "__main__":
    main(sys.argv[1:])
