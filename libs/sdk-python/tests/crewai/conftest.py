"""The live service's fixtures (tests/integration/conftest.py) for the CrewAI bridge's tests, which run in
the CrewAI venv (tools/scripts/python-sdk.mjs --venv crewai). CrewAI's telemetry stays off."""

from __future__ import annotations

import os

from ..integration.conftest import client, live

__all__ = ["client", "live"]

os.environ["CREWAI_DISABLE_TELEMETRY"] = "true"
os.environ["OTEL_SDK_DISABLED"] = "true"
