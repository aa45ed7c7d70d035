# Generated from contract/openapi.json by datamodel-code-generator (tools/scripts/codegen.mjs). Do not edit.
from .models import *  # noqa: F401,F403
