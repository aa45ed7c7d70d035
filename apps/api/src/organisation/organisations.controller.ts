import { Body } from '../http/validated-params';
import type { UserCall } from '../auth/caller';
import { UserCaller } from '../auth/decorators/current-principal.decorator';
import { UserRoute } from '../auth/decorators/route-access.decorator';
import { refuseUnderSso } from '../auth/sso-session.util';
import { OrganisationJoinedResponse } from '../users/dto/account.response';
import { CreateOrganisationDto } from './dto/create-organisation.dto';
import { OrganisationService } from './organisation.service';
import { CostlyWrite } from '../rate-limits/costly-write.decorator';
import { ApiController, Operation } from '../openapi/operation.decorator';

/** Organisations as the signed-in person sees them: creating another one they own. */
@ApiController('api/organisations', 'organisation')
export class OrganisationsController {
  constructor(private readonly organisations: OrganisationService) {}

  @UserRoute()
  @CostlyWrite('organisation_create')
  @Operation.Post('/', 'createOrganisation', {
    summary: 'Create another organisation (Free plan), with you as its Owner',
    created: OrganisationJoinedResponse,
  })
  create(@UserCaller() caller: UserCall, @Body() body: CreateOrganisationDto) {
    refuseUnderSso(caller.user, 'createOrganisation');
    return this.organisations.create(caller, body.name);
  }
}
