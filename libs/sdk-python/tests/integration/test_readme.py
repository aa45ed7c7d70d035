"""Every example of the README runs as written against the live service, with the real pinned langchain
and langgraph packages of the dev environment. Each fenced ```python block is type-checked with
``mypy --strict``, then run as its own script with its own API key, while a member answers what that
key opened (``openedBy=me``) through the human route with the session cookie. A block that cannot run
here (installing from the package index, the repository's shell commands) carries
``<!-- readme-check: skip: <why> -->`` on the line before its fence; any other block must run. A block for a
framework with an environment of its own carries ``<!-- readme-check: venv <name> -->`` and runs there
(tests/crewai/test_crewai_readme.py for ``crewai``), with these same helpers."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import pytest

from .conftest import Live, run_tag

pytestmark = pytest.mark.integration
SDK_DIR = Path(__file__).resolve().parents[2]
README = SDK_DIR / "README.md"
SKIP_MARKER = re.compile(r"^<!--\s*readme-check:\s*skip:\s*(\S.*?)\s*-->$")
VENV_MARKER = re.compile(r"^<!--\s*readme-check:\s*venv\s+(\w+)\s*-->$")
NEEDS_HUMAN = re.compile(
    r"\.(wait_for_answer|review_langgraph)\(|\b(review_interruptions|interlock_approvals|review_deferred|ask|ask_async)\("
)


@dataclass(frozen=True)
class Block:
    line: int
    lang: str
    heading: str
    code: str
    skip: Optional[str]
    venv: Optional[str]

    @property
    def label(self) -> str:
        return f"README.md:{self.line} ({self.heading})"


def readme_blocks(path: Path) -> list[Block]:
    """Every fenced code block of a Markdown file (fences may be indented, as in lists)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    blocks: list[Block] = []
    heading = ""
    i = 0
    while i < len(lines):
        fence = re.match(r"^( *)```(\S*)\s*$", lines[i])
        if fence is None:
            title = re.match(r"^#{1,6} (.*)$", lines[i])
            if title:
                heading = title.group(1)
            i += 1
            continue
        indent, lang = fence.group(1), fence.group(2)
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and lines[i].rstrip() != f"{indent}```":
            body.append(lines[i][len(indent) :])
            i += 1
        assert i < len(lines), f"{path}:{start + 1}: a code block that never closes"
        before = start - 1
        while before >= 0 and lines[before].strip() == "":
            before -= 1
        marker = SKIP_MARKER.match(lines[before].strip()) if before >= 0 else None
        venv = VENV_MARKER.match(lines[before].strip()) if before >= 0 else None
        code = "\n".join(body) + "\n"
        blocks.append(
            Block(start + 1, lang, heading, code, marker.group(1) if marker else None, venv.group(1) if venv else None)
        )
        i += 1
    return blocks


BLOCKS = readme_blocks(README)
EXAMPLES = [b for b in BLOCKS if b.lang == "python" and b.skip is None and b.venv is None]


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    decided: int


def _sample(field: dict[str, Any]) -> Any:
    if "enum" in field:
        return field["enum"][0]
    if field["type"] == "array":
        return [_sample(field["items"])] * min(1, field.get("maxItems", 1)) if field.get("minItems", 0) > 0 else []
    if field["type"] == "boolean":
        return True
    if field["type"] in ("integer", "number"):
        return field.get("minimum", 1)
    return "ok"


def sample_response(schema: dict[str, Any]) -> dict[str, Any]:
    """A typed answer a person could give: each required field filled (the first enum value, the minimum…)."""
    return {name: _sample(schema["properties"][name]) for name in schema.get("required", [])}


def answer_while_running(live: Live, api_key: str, done: threading.Event) -> int:
    """Plays the organisation's humans: every open interrupt ``api_key`` opened gets a decision for each of
    its actions — approve where allowed, else a written answer — until ``done`` is set."""
    decided = 0
    while not done.is_set():
        page = live.raw("GET", "/api/interrupts", api_key=api_key, params={"status": "open", "openedBy": "me"})
        assert page.status_code == 200, page.text
        for interrupt in page.json()["interrupts"]:
            taken = {d["actionName"] for d in interrupt["decisions"]}
            for action in interrupt["actionRequests"]:
                if action["name"] in taken:
                    continue
                if action.get("responseSchema"):
                    body = {
                        "actionName": action["name"],
                        "decision": "respond",
                        "response": sample_response(action["responseSchema"]),
                    }
                elif "approve" in action["allowedDecisions"]:
                    body = {"actionName": action["name"], "decision": "approve"}
                else:
                    body = {"actionName": action["name"], "decision": "respond", "message": "Yes, go ahead."}
                answer = live.raw(
                    "POST", f"/api/interrupts/{interrupt['id']}/decisions", cookie=live.member_cookie, json=body
                )
                # 409: decided meanwhile (a page read before an earlier decision landed).
                assert answer.status_code in (201, 409), answer.text
                decided += answer.status_code == 201
        time.sleep(0.1)
    return decided


def run_example(live: Live, script: Path) -> Run:
    """Runs one example with a key of its own, answering what it asks; killed after 240 s (a bound
    for a hung example, not a timing: importing a framework alone took 10 s on the shared machine
    under load, and four examples run at once)."""
    key_id, api_key = live.create_key(run_tag("py-readme-"))
    try:
        env = {
            "PATH": os.environ.get("PATH", ""),
            "INTERLOCK_API_KEY": api_key,
            "INTERLOCK_BASE_URL": live.base_url,
            # A venv without the SDK installed (python-sdk.mjs --venv) finds it here; CrewAI's telemetry off.
            **{
                k: os.environ[k]
                for k in ("PYTHONPATH", "CREWAI_DISABLE_TELEMETRY", "OTEL_SDK_DISABLED")
                if k in os.environ
            },
        }
        done = threading.Event()
        with ThreadPoolExecutor(max_workers=1) as human:
            decided = human.submit(answer_while_running, live, api_key, done)
            try:
                child = subprocess.run(
                    [sys.executable, str(script)],
                    cwd=script.parent,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=240,
                    check=False,
                )
            finally:
                done.set()
            return Run(child.returncode, child.stdout, child.stderr, decided.result())
    finally:
        live.revoke_key(key_id)


@pytest.fixture(scope="module")
def runs(live: Live, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[int, Future[Run]]]:
    """Every example type-checked, then run four at a time (most of a run is waiting for the service or
    the human)."""
    folder = tmp_path_factory.mktemp("readme")
    scripts = {b.line: folder / f"readme_line_{b.line}.py" for b in EXAMPLES}
    for block in EXAMPLES:
        scripts[block.line].write_text(block.code, encoding="utf-8")
    mypy = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", *map(str, scripts.values())],
        cwd=SDK_DIR,
        capture_output=True,
        text=True,
        check=False,
    )
    assert mypy.returncode == 0, f"the README examples do not type-check:\n{mypy.stdout}{mypy.stderr}"
    with ThreadPoolExecutor(max_workers=4) as pool:
        yield {line: pool.submit(run_example, live, script) for line, script in scripts.items()}


def test_every_block_runs_except_the_few_marked_as_not_runnable_here() -> None:
    assert [b.label for b in BLOCKS if b.lang != "python" and b.skip is None] == []
    # Named by section, so a new skip is a decision someone makes here.
    assert [b.heading for b in BLOCKS if b.skip is not None] == ["Install", "Webhooks", "Development"]
    # Run in their own venv by their own test (tests/crewai/test_crewai_readme.py).
    assert [(b.heading, b.venv) for b in BLOCKS if b.venv is not None] == [("CrewAI", "crewai")]
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("block", EXAMPLES, ids=[b.label for b in EXAMPLES])
def test_the_example_runs_as_written(block: Block, runs: dict[int, Future[Run]]) -> None:
    result = runs[block.line].result(timeout=600)
    assert (result.code, result.stderr) == (0, ""), result.stdout
    # An example that waits for a human ended because one decided, not for another reason.
    if NEEDS_HUMAN.search(block.code):
        assert result.decided > 0
