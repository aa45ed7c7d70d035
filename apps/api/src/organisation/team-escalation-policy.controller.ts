import { Body } from '../http/validated-params';
import type { MemberCall } from '../auth/caller';
import { CurrentMember, MemberCaller } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { IdParam } from '../http/id-param.pipe';
import { EscalationPolicyDto, EscalationPolicyResponse } from './dto/escalation-policy.dto';
import { EscalationPolicyService } from './escalation-policy.service';
import { ApiController, Operation } from '../openapi/operation.decorator';

/**
 * A team's escalation policy (SPEC §8e): the reminders and escalations of the interrupts assigned
 * to the team, in place of the organisation's. Beside the organisation's policy (one service),
 * under the team's path.
 */
@ApiController('api/teams', 'teams')
export class TeamEscalationPolicyController {
  constructor(private readonly escalation: EscalationPolicyService) {}

  @MemberRoute()
  @Operation.Get(':id/escalation-policy', 'getTeamEscalationPolicy', {
    summary:
      "A team's escalation policy: reminders and escalations of the interrupts assigned to it",
    ok: EscalationPolicyResponse,
  })
  get(@CurrentMember() member: MemberPrincipal, @IdParam() id: string) {
    return this.escalation.getForTeam(member.organisationId, id);
  }

  @MemberRoute('team.manage')
  @Operation.Put(':id/escalation-policy', 'replaceTeamEscalationPolicy', {
    summary: "Replace a team's escalation policy ([] removes it: the organisation's applies)",
    ok: EscalationPolicyResponse,
  })
  replace(
    @MemberCaller() caller: MemberCall,
    @IdParam() id: string,
    @Body() body: EscalationPolicyDto,
  ) {
    return this.escalation.replaceForTeam({ teamId: id, steps: body.steps, ...caller });
  }
}
