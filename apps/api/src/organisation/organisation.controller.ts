import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClientIp, CurrentMember } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import { memberActorOf, type MemberPrincipal } from '../auth/principal';
import { ChangePlanDto } from './dto/change-plan.dto';
import { OrganisationResponse } from './dto/organisation.response';
import { OrganisationService } from './organisation.service';

@Controller('api/organisation')
@ApiTags('organisation')
export class OrganisationController {
  constructor(private readonly organisations: OrganisationService) {}

  @Get()
  @MemberRoute()
  @ApiOperation({ operationId: 'getOrganisation', summary: 'The organisation, its plan and this month\'s usage' })
  @ApiOkResponse({ type: OrganisationResponse })
  get(@CurrentMember() member: MemberPrincipal): Promise<OrganisationResponse> {
    return this.organisations.get(member.organisationId);
  }

  @Put('plan')
  @MemberRoute('billing.manage')
  @ApiOperation({ operationId: 'changePlan', summary: 'Move the organisation to the Free or Pro plan' })
  @ApiOkResponse({ type: OrganisationResponse })
  changePlan(
    @CurrentMember() member: MemberPrincipal,
    @Body() body: ChangePlanDto,
    @ClientIp() ip: string | null,
  ): Promise<OrganisationResponse> {
    return this.organisations.changePlan(member.organisationId, memberActorOf(member), body.plan, ip);
  }
}
