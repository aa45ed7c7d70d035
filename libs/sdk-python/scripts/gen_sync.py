"""The sync resources are generated from the async ones (issue 36): unasync turns
``resources/_async/*.py`` into ``resources/_sync/*.py`` (``async def`` → ``def``, no ``await``, the
async names into the sync ones), then ruff formats them as the rest of the package.

    python scripts/gen_sync.py           regenerate resources/_sync
    python scripts/gen_sync.py --check   exit 1 when resources/_sync is not what the async code gives

``node tools/scripts/python-sdk.mjs unasync`` runs the first; its ``lint`` step runs the check.
"""

from __future__ import annotations

import difflib
import subprocess
import sys
import tempfile
from pathlib import Path

import unasync

ROOT = Path(__file__).resolve().parent.parent
RESOURCES = ROOT / "src" / "interlock" / "resources"
ASYNC_DIR = RESOURCES / "_async"
SYNC_DIR = RESOURCES / "_sync"

#: The async names and their sync twins (unasync knows async/await and the dunder methods itself).
REPLACEMENTS = {
    "AsyncInterlock": "Interlock",
    "AsyncInterrupts": "Interrupts",
    "AsyncSessions": "Sessions",
    "AsyncInterruptPages": "InterruptPages",
    "AsyncSessionPages": "SessionPages",
    "async_sleep": "sleep",
}


def _docstring(name: str) -> str:
    return (
        f'"""Generated from ``resources/_async/{name}`` by unasync (``scripts/gen_sync.py``): do not edit.\n\n'
        'Change the async source, then run ``node tools/scripts/python-sdk.mjs unasync``.\n"""\n'
    )


def generate(into: Path) -> list[Path]:
    """Writes the sync twins into ``into``; returns their paths."""
    into.mkdir(parents=True, exist_ok=True)
    rule = unasync.Rule(fromdir=f"{ASYNC_DIR}/", todir=f"{into}/", additional_replacements=REPLACEMENTS)
    sources = sorted(str(path) for path in ASYNC_DIR.glob("*.py"))
    unasync.unasync_files(sources, rules=[rule])
    written = []
    for source in sources:
        target = into / Path(source).name
        text = target.read_text()
        if Path(source).name == "__init__.py":
            text = '"""The sync resources, generated from ``resources/_async`` by unasync: do not edit."""\n'
        elif text.startswith('"""'):
            # The async source's module docstring speaks of itself: the twin says what it is instead.
            end = text.index('"""', 3) + 3
            text = _docstring(Path(source).name) + "\n" + text[end:].lstrip("\n")
        target.write_text(text)
        written.append(target)
    config = str(ROOT / "pyproject.toml")
    ruff = Path(sys.executable).parent / "ruff"
    paths = [str(path) for path in written]
    subprocess.run([str(ruff), "check", "--quiet", "--fix", "--config", config, *paths], check=True)
    subprocess.run([str(ruff), "format", "--quiet", "--config", config, *paths], check=True)
    return written


def check() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        fresh = {path.name: path.read_text() for path in generate(Path(tmp) / "_sync")}
    committed = {path.name: path.read_text() for path in SYNC_DIR.glob("*.py")}
    if fresh == committed:
        print("[unasync] resources/_sync is what resources/_async generates")
        return 0
    for name in sorted(set(fresh) | set(committed)):
        if fresh.get(name) != committed.get(name):
            diff = difflib.unified_diff(
                (committed.get(name) or "").splitlines(keepends=True),
                (fresh.get(name) or "").splitlines(keepends=True),
                f"committed _sync/{name}",
                f"generated _sync/{name}",
            )
            sys.stdout.writelines(diff)
    print(
        "[unasync] resources/_sync differs from what resources/_async generates: "
        "run `node tools/scripts/python-sdk.mjs unasync` and commit the result",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        sys.exit(check())
    generate(SYNC_DIR)
    print("[unasync] wrote resources/_sync")
