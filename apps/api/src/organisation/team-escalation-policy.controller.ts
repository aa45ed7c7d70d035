import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ClientIp, CurrentMember } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import { memberActorOf, type MemberPrincipal } from '../auth/principal';
import { IdParam } from '../http/id-param.pipe';
import { EscalationPolicyDto, EscalationPolicyResponse } from './dto/escalation-policy.dto';
import { EscalationPolicyService } from './escalation-policy.service';
import { Operation } from '../openapi/operation.decorator';

/**
 * A team's escalation policy (SPEC §8e): the reminders and escalations of the interrupts assigned
 * to the team, in place of the organisation's. Beside the organisation's policy (one service),
 * under the team's path.
 */
@Controller('api/teams')
@ApiTags('teams')
export class TeamEscalationPolicyController {
  constructor(private readonly escalation: EscalationPolicyService) {}

  @Get(':id/escalation-policy')
  @MemberRoute()
  @Operation({
    operationId: 'getTeamEscalationPolicy',
    summary:
      "A team's escalation policy: reminders and escalations of the interrupts assigned to it",
    ok: EscalationPolicyResponse,
  })
  get(
    @CurrentMember() member: MemberPrincipal,
    @IdParam() id: string,
  ): Promise<EscalationPolicyResponse> {
    return this.escalation.getForTeam(member.organisationId, id);
  }

  @Put(':id/escalation-policy')
  @MemberRoute('team.manage')
  @Operation({
    operationId: 'replaceTeamEscalationPolicy',
    summary: "Replace a team's escalation policy ([] removes it: the organisation's applies)",
    ok: EscalationPolicyResponse,
  })
  replace(
    @CurrentMember() member: MemberPrincipal,
    @IdParam() id: string,
    @Body() body: EscalationPolicyDto,
    @ClientIp() ip: string | null,
  ): Promise<EscalationPolicyResponse> {
    return this.escalation.replaceForTeam({
      organisationId: member.organisationId,
      actor: memberActorOf(member),
      teamId: id,
      steps: body.steps,
      ip,
    });
  }
}
