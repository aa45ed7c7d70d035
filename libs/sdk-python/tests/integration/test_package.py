"""The distribution as a user gets it: build the SDK (``twine check`` accepts it), serve the wheel at the
service's ``/downloads``, ``pip install`` it from that URL into a fresh virtual
environment (httpx and pydantic come from the package index), and run the README's quick start there,
verbatim, against the live service."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from .conftest import Live

pytestmark = pytest.mark.integration
SDK_DIR = Path(__file__).resolve().parents[2]
REPORT = """
import json
import interlock
print(json.dumps({
    "status": answered.status,
    "decisions": [[d.action_name, d.decision] for d in answered.decisions],
    "id": str(interrupt.id),
    "module": interlock.__file__,
}))
"""


def run(*args: str, cwd: Path) -> str:
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"{' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def readme_quick_start() -> str:
    """The first ```python block of the README's "Quick start" section, as printed there."""
    readme = (SDK_DIR / "README.md").read_text(encoding="utf-8")
    match = re.search(r"```python\n(.*?)```", readme[readme.index("## Quick start") :], re.DOTALL)
    assert match is not None, 'no ```python block under "## Quick start" in libs/sdk-python/README.md'
    return match.group(1)


def approve_when_opened(live: Live, title: str, since: str) -> str:
    """Decides the interrupt the quick start opens, once it shows up: a member approves it."""
    for _ in range(600):
        page = live.raw("GET", "/api/interrupts", api_key=live.api_key, params={"status": "open", "limit": 50}).json()
        for found in page["interrupts"]:
            if found["title"] == title and found["createdAt"] >= since:
                for action in found["actionRequests"]:
                    live.decide(found["id"], action["name"])
                return str(found["id"])
        time.sleep(0.1)
    raise AssertionError(f"no open interrupt titled {title} appeared")


def build(out: Path) -> tuple[Path, Path]:
    """The wheel and the sdist, built by hatchling from the pinned dev requirements (no isolation)."""
    hatchling = Path(sys.executable).parent / "hatchling"
    env = {"SOURCE_DATE_EPOCH": "1767225600"}  # fixed timestamps inside both archives
    result = subprocess.run(
        [str(hatchling), "build", "-d", str(out)],
        cwd=SDK_DIR,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    (wheel,) = out.glob("interlock_sdk-*.whl")
    (sdist,) = out.glob("interlock_sdk-*.tar.gz")
    return wheel, sdist


def test_wheel_and_sdist_build_reproducibly_and_the_sdist_installs(tmp_path: Path) -> None:
    first = build(tmp_path / "a")
    second = build(tmp_path / "b")
    for one, two in zip(first, second):
        assert one.read_bytes() == two.read_bytes(), f"{one.name} differs between two builds"
    wheel, sdist = first
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    root = sdist.name.removesuffix(".tar.gz")
    for needed in (
        "pyproject.toml",
        "README.md",
        "CHANGELOG.md",
        "src/interlock/py.typed",
        "src/interlock/langgraph.py",
    ):
        assert f"{root}/{needed}" in names
    assert "interlock/langgraph.py" in zipfile.ZipFile(wheel).namelist()
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", str(venv), cwd=tmp_path)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    # From the sdist: pip builds it with hatchling, as a user without a wheel would.
    run(str(python), "-m", "pip", "install", "--quiet", str(sdist), cwd=tmp_path)
    version = run(str(python), "-c", "import interlock; print(interlock.__version__)", cwd=tmp_path)
    assert version.strip() == re.search(r'^version = "(.+)"', (SDK_DIR / "pyproject.toml").read_text(), re.M).group(1)  # type: ignore[union-attr]


def serve(live: Live, file: Path) -> str:
    """Puts a built package into the service's /downloads folder (with its manifest); returns its URL."""
    folder = Path(os.environ["INTERLOCK_TEST_DOWNLOADS_DIR"])
    data = file.read_bytes()
    (folder / file.name).write_bytes(data)
    version = file.name.split("-")[1]
    package = {
        "name": "interlock-sdk",
        "kind": "python",
        "version": version,
        "file": file.name,
        "sha256": hashlib.sha256(data).hexdigest(),
        "size": len(data),
    }
    (folder / "manifest.json").write_text(json.dumps({"packages": [package]}), encoding="utf-8")
    return f"{live.base_url}/downloads/{file.name}"


def test_the_wheel_installs_into_a_fresh_venv_and_runs_the_readme_quick_start(live: Live, tmp_path: Path) -> None:
    wheel, sdist = build(tmp_path / "dist")
    # The release path: twine accepts both archives (metadata, the README renders on PyPI).
    checked = run(sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdist), cwd=tmp_path)
    assert checked.count("PASSED") == 2, checked
    names = zipfile.ZipFile(wheel).namelist()
    assert "interlock/py.typed" in names
    assert "interlock/_generated/models.py" in names
    assert not [n for n in names if n.startswith("tests/")]

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", str(venv), cwd=tmp_path)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    # Installed as the dashboard tells people to: from the service's /downloads (issue 32 §4).
    run(str(python), "-m", "pip", "install", "--quiet", serve(live, wheel), cwd=tmp_path)
    installed = run(str(python), "-m", "pip", "list", "--format=json", cwd=tmp_path)
    assert {p["name"].lower() for p in json.loads(installed)} >= {"interlock-sdk", "httpx", "pydantic"}

    project = tmp_path / "project"
    project.mkdir()
    script = project / "quick_start.py"
    script.write_text(readme_quick_start() + REPORT, encoding="utf-8")
    # The quick start type-checks against the installed package (py.typed).
    run(
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--no-incremental",
        f"--python-executable={python}",
        str(script),
        cwd=project,
    )

    since = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(time.time() - 1))
    env: dict[str, Any] = {
        "PATH": os.environ.get("PATH", ""),
        "INTERLOCK_API_KEY": live.api_key,
        "INTERLOCK_BASE_URL": live.base_url,
    }
    with subprocess.Popen(
        [str(python), str(script)], cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as child:
        decided = approve_when_opened(live, "Send the refund?", since)
        stdout, stderr = child.communicate(timeout=60)
    assert child.returncode == 0, stderr
    assert stderr == ""
    report = json.loads(stdout)
    assert report["module"].startswith(str(venv))
    assert {k: report[k] for k in ("status", "decisions", "id")} == {
        "status": "answered",
        "decisions": [["refund", "approve"]],
        "id": decided,
    }
