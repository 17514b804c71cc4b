"""The engine core the Makefile compiles with mypyc runs compiled, all of it or none of it.

CI builds it (`make test` compiles first), so there every module must load from its extension:
the benchmarks' figures and the tests then speak of the code users run after `make setup`.
"""

from __future__ import annotations

import importlib

from tests.compiled import ROOT, compiled_sources, extension_of
from tests.reference import in_ci


def _module_name(source_path: str) -> str:
    return source_path.removesuffix(".py").replace("/", ".")


def test_the_compiled_core_is_all_or_nothing_and_always_in_ci() -> None:
    sources = [str(s.relative_to(ROOT)) for s in compiled_sources()]
    assert "domain/board.py" in sources and all((ROOT / s).exists() for s in sources)
    loaded = {s: importlib.import_module(_module_name(s)).__file__ or "" for s in sources}
    built = {s for s in sources if extension_of(ROOT / s) is not None}
    running = {s for s, file in loaded.items() if file.endswith(".so")}
    assert running == built, "every extension built is the module Python runs"
    if in_ci() or built:
        assert running == set(sources), f"not compiled: {sorted(set(sources) - running)}"
