import { ApiProperty } from '@nestjs/swagger';
import { JsonText, PLANS } from '@interlock/domain';
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
  /**
   * Each key's answer, written out once per principal: the key cache gives every request of a
   * cached key its one principal object (`CachedApiKey.principal`), and agents ask this route
   * often (issue 28). A key's change makes a new cache entry, so a new principal and a new answer.
   */
  private readonly answers = new WeakMap<ApiKeyPrincipal, JsonText<WhoamiResponse>>();

  @MachineRoute()
  @Operation.Get('/', 'getWhoami', {
    summary: 'The calling key, its organisation and plan',
    ok: WhoamiResponse,
  })
  whoami(@CurrentApiKey() key: ApiKeyPrincipal): JsonText<WhoamiResponse> {
    let answer = this.answers.get(key);
    if (answer === undefined) {
      const body: WhoamiResponse = {
        organisationId: key.organisationId,
        plan: key.plan,
        apiKey: { id: key.apiKeyId, name: key.apiKeyName },
      };
      answer = new JsonText(JSON.stringify(body));
      this.answers.set(key, answer);
    }
    return answer;
  }
}
