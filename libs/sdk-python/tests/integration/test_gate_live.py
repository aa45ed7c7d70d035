"""require_approval against the live service: a member decides over HTTP (the session cookie)."""

from __future__ import annotations

import pytest

from interlock import ApprovalRejectedError, AsyncInterlock, Interlock, require_approval

from .conftest import Live, run_tag

pytestmark = pytest.mark.integration


def test_approve_edit_and_reject_through_the_inbox(live: Live, client: Interlock) -> None:
    sent: list[tuple[str, str]] = []
    tag = run_tag("gate-")

    def gated(external_id: str) -> object:
        @require_approval(
            client=client, external_id=external_id, poll_interval=0.1, title=lambda to, body: f"Email {to}?"
        )
        def send_email(to: str, body: str) -> int:
            sent.append((to, body))
            return len(sent)

        return send_email

    join = live.decide_when_open(f"{tag}-a", lambda action: ("approve", {}))
    assert gated(f"{tag}-a")("ada@example.com", "Hi") == 1  # type: ignore[operator]
    (opened,) = join()
    assert opened["title"] == "Email ada@example.com?"
    assert opened["actionRequests"][0]["args"] == {"to": "ada@example.com", "body": "Hi"}

    join = live.decide_when_open(f"{tag}-e", lambda action: ("edit", {"editedArgs": {"body": "Hello, Ada."}}))
    assert gated(f"{tag}-e")("ada@example.com", "Hi") == 2  # type: ignore[operator]
    join()
    assert sent[-1] == ("ada@example.com", "Hello, Ada.")

    join = live.decide_when_open(f"{tag}-r", lambda action: ("reject", {"message": "Not today."}))
    with pytest.raises(ApprovalRejectedError) as info:
        gated(f"{tag}-r")("bob@example.com", "Hi")  # type: ignore[operator]
    join()
    assert info.value.reviewer_message == "Not today."
    assert len(sent) == 2


@pytest.mark.anyio
async def test_an_async_function_runs_once_approved(live: Live) -> None:
    external_id = run_tag("gate-async-")
    client = AsyncInterlock(api_key=live.api_key, base_url=live.base_url)

    @require_approval(client=client, external_id=external_id, poll_interval=0.1)
    async def archive(project: str) -> str:
        return f"archived {project}"

    join = live.decide_when_open(external_id, lambda action: ("approve", {}))
    assert await archive("apollo") == "archived apollo"
    join()
    await client.close()
