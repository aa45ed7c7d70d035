"""The README's CrewAI example, as written, in the CrewAI venv: type-checked with mypy --strict, then run as
its own script with its own API key while a member answers what that key opened (the helpers of
tests/integration/test_readme.py, which runs every other example in the dev venv)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..integration.conftest import Live
from ..integration.test_readme import BLOCKS, SDK_DIR, run_example

pytestmark = pytest.mark.integration
CREWAI = [b for b in BLOCKS if b.venv == "crewai"]


def test_the_crewai_example_type_checks_and_runs(live: Live, tmp_path: Path) -> None:
    (block,) = CREWAI
    script = tmp_path / "readme_crewai.py"
    script.write_text(block.code, encoding="utf-8")
    mypy = subprocess.run(
        # The venv's own mypy cache: the dev venv's (SDK_DIR/.mypy_cache) knows another pydantic.
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(Path(sys.prefix) / ".mypy_cache"), str(script)],
        cwd=SDK_DIR,
        env={**os.environ, "PYTHONPATH": str(SDK_DIR / "src")},
        capture_output=True,
        text=True,
        check=False,
    )
    assert mypy.returncode == 0, f"the README's CrewAI example does not type-check:\n{mypy.stdout}{mypy.stderr}"
    result = run_example(live, script)
    assert (result.code, result.stderr) == (0, ""), result.stdout
    assert result.stdout.rstrip().endswith("Published."), result.stdout
    assert result.decided == 1
