import { ApiProperty } from '@nestjs/swagger';
import { PLANS } from '@interlock/domain';
import type { Plan } from '@interlock/domain';
import { CurrentApiKey } from './decorators/current-principal.decorator';
import { MachineRoute } from './decorators/route-access.decorator';
import type { ApiKeyPrincipal } from './principal';
import { ApiController, Operation } from '../openapi/operation.decorator';
import { ApiUuid } from '../openapi/api-field.decorator';

export class WhoamiApiKey {
  @ApiUuid()
  id!: string;

  @ApiProperty()
  name!: string;
}

export class WhoamiResponse {
  @ApiUuid()
  organisationId!: string;

  @ApiProperty({ enum: PLANS, enumName: 'Plan' })
  plan!: Plan;

  @ApiProperty({ type: WhoamiApiKey })
  apiKey!: WhoamiApiKey;
}

/** Lets an agent check its key: which key it is, for which organisation, on which plan. */
@ApiController('api/whoami', 'auth')
export class WhoamiController {
  @MachineRoute()
  @Operation.Get('/', 'getWhoami', {
    summary: 'The calling key, its organisation and plan',
    ok: WhoamiResponse,
  })
  whoami(@CurrentApiKey() key: ApiKeyPrincipal) {
    return {
      organisationId: key.organisationId,
      plan: key.plan,
      apiKey: { id: key.apiKeyId, name: key.apiKeyName },
    };
  }
}
