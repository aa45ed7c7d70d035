import { Body } from '../http/validated-params';
import type { MemberCall } from '../auth/caller';
import { CurrentMember, MemberCaller } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { ChangePlanDto } from './dto/change-plan.dto';
import {
  InterruptDeadlineSettingsResponse,
  UpdateInterruptDeadlineSettingsDto,
} from './dto/interrupt-deadline-settings.dto';
import { OrganisationResponse } from './dto/organisation.response';
import { InterruptDeadlineSettingsService } from './interrupt-deadline-settings.service';
import { EscalationPolicyService } from './escalation-policy.service';
import { EscalationPolicyDto, EscalationPolicyResponse } from './dto/escalation-policy.dto';
import { OrganisationService } from './organisation.service';
import {
  PutTwoFactorRequirementDto,
  TwoFactorRequirementResponse,
} from './dto/two-factor-requirement.dto';
import { TwoFactorRequirementService } from './two-factor-requirement.service';
import { ApiController, Operation } from '../openapi/operation.decorator';

@ApiController('api/organisation', 'organisation')
export class OrganisationController {
  constructor(
    private readonly organisations: OrganisationService,
    private readonly deadlines: InterruptDeadlineSettingsService,
    private readonly escalation: EscalationPolicyService,
    private readonly twoFactorRequirement: TwoFactorRequirementService,
  ) {}

  @MemberRoute()
  @Operation.Get('two-factor-requirement', 'getTwoFactorRequirement', {
    summary: 'Whether the organisation requires two-factor sign-in of its members',
    ok: TwoFactorRequirementResponse,
  })
  getTwoFactorRequirement(@CurrentMember() member: MemberPrincipal) {
    return this.twoFactorRequirement.get(member.organisationId);
  }

  @MemberRoute('member.manage')
  @Operation.Put('two-factor-requirement', 'putTwoFactorRequirement', {
    summary:
      'Require two-factor sign-in for members (Owners only): a password sign-in without it no longer acts for the organisation until the person turns it on',
    description:
      'Turning it on needs two-factor sign-in on for the Owner doing it. Single sign-on sessions follow the provider’s policy; API keys are not affected.',
    ok: TwoFactorRequirementResponse,
  })
  putTwoFactorRequirement(
    @MemberCaller() caller: MemberCall,
    @Body() body: PutTwoFactorRequirementDto,
  ) {
    return this.twoFactorRequirement.set(caller, body.requireTwoFactor);
  }

  @MemberRoute()
  @Operation.Get('/', 'getOrganisation', {
    summary: "The organisation, its plan and this month's usage",
    ok: OrganisationResponse,
  })
  get(@CurrentMember() member: MemberPrincipal) {
    return this.organisations.get(member.organisationId);
  }

  @MemberRoute('billing.manage')
  @Operation.Put('plan', 'changePlan', {
    summary: 'Move the organisation to the Free or Pro plan',
    ok: OrganisationResponse,
  })
  changePlan(@MemberCaller() caller: MemberCall, @Body() body: ChangePlanDto) {
    return this.organisations.changePlan(caller, body.plan);
  }

  @MemberRoute()
  @Operation.Get('interrupt-deadlines', 'getInterruptDeadlineSettings', {
    summary:
      "The organisation's bounds on interrupt deadlines (default, maximum, approval at the deadline)",
    ok: InterruptDeadlineSettingsResponse,
  })
  deadlineSettings(@CurrentMember() member: MemberPrincipal) {
    return this.deadlines.get(member.organisationId);
  }

  // Who may let the service approve without a person: the same holders as argus's rules.
  @MemberRoute('classification.manage')
  @Operation.Patch('interrupt-deadlines', 'updateInterruptDeadlineSettings', {
    summary: "Change the organisation's bounds on interrupt deadlines (the fields given)",
    ok: InterruptDeadlineSettingsResponse,
  })
  updateDeadlineSettings(
    @MemberCaller() caller: MemberCall,
    @Body() body: UpdateInterruptDeadlineSettingsDto,
  ) {
    return this.deadlines.update(caller, body);
  }

  @MemberRoute()
  @Operation.Get('escalation-policy', 'getEscalationPolicy', {
    summary:
      "The organisation's escalation policy: reminders and escalations of waiting interrupts",
    ok: EscalationPolicyResponse,
  })
  escalationPolicy(@CurrentMember() member: MemberPrincipal) {
    return this.escalation.get(member.organisationId);
  }

  // Steps assign interrupts to members and teams: the people who arrange the teams set them.
  @MemberRoute('team.manage')
  @Operation.Put('escalation-policy', 'replaceEscalationPolicy', {
    summary: "Replace the organisation's escalation policy ([] removes it)",
    ok: EscalationPolicyResponse,
  })
  replaceEscalationPolicy(@MemberCaller() caller: MemberCall, @Body() body: EscalationPolicyDto) {
    return this.escalation.replace({ steps: body.steps, ...caller });
  }
}
