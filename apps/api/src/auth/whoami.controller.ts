import { Controller, Get } from '@nestjs/common';
import type { Plan } from '@interlock/domain';
import { CurrentApiKey } from './decorators/current-principal.decorator';
import { MachineRoute } from './decorators/route-access.decorator';
import type { ApiKeyPrincipal } from './principal';

/** Lets an agent check its key: which key it is, for which organisation, on which plan. */
@Controller('api/whoami')
export class WhoamiController {
  @Get()
  @MachineRoute()
  whoami(@CurrentApiKey() key: ApiKeyPrincipal): {
    organisationId: string;
    plan: Plan;
    apiKey: { id: string; name: string };
  } {
    return { organisationId: key.organisationId, plan: key.plan, apiKey: { id: key.apiKeyId, name: key.apiKeyName } };
  }
}
