"""The wheel's build hook: compile the engine's hot path (src/cardtable/compiled.py).

Without a C compiler (or mypyc) the package is still built, pure Python, with a warning:
the compiled modules are a speed-up, never a requirement.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _compiled_module(root: Path) -> Any:
    spec = importlib.util.spec_from_file_location(
        "_cardtable_compiled", root / "src" / "cardtable" / "compiled.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class CompiledEngine(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        compiled = _compiled_module(root)
        if compiled.pure_asked():
            self.app.display_info(f"{compiled.PURE_ENV} is set: the engine stays pure Python")
            return
        try:
            made = compiled.build(root)
        except (Exception, SystemExit) as error:  # mypyc exits on a type error
            # no compiler, no mypyc: the source runs as it is
            self.app.display_warning(f"the engine was not compiled ({error}); it runs as Python")
            return
        self.app.display_info(f"compiled the engine's hot path: {len(made) - 1} modules")
        if version == "editable":  # the modules lie beside their sources in src/
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        src = (root / "src").resolve()
        for path in [*made, compiled.MANIFEST]:
            build_data["force_include"][str(path)] = str(path.relative_to(src))
