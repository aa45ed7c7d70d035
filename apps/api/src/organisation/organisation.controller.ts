import { Body, Controller, Get, Put } from '@nestjs/common';
import { ClientIp, CurrentMember } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { ChangePlanDto } from './dto/change-plan.dto';
import { OrganisationResponse, OrganisationService } from './organisation.service';

@Controller('api/organisation')
export class OrganisationController {
  constructor(private readonly organisations: OrganisationService) {}

  @Get()
  @MemberRoute()
  get(@CurrentMember() member: MemberPrincipal): Promise<OrganisationResponse> {
    return this.organisations.get(member.organisationId);
  }

  @Put('plan')
  @MemberRoute('billing.manage')
  changePlan(
    @CurrentMember() member: MemberPrincipal,
    @Body() body: ChangePlanDto,
    @ClientIp() ip: string | null,
  ): Promise<OrganisationResponse> {
    return this.organisations.changePlan(member, body.plan, ip);
  }
}
