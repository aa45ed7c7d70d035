import { Body } from '../http/validated-params';
import { CurrentMember } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { ClassificationDryRunService } from './classification-dry-run.service';
import { DryRunDto, DryRunResponse } from './dto/dry-run.dto';
import { ApiController, Operation } from '../openapi/operation.decorator';

@ApiController('api/classification/dry-run', 'classification')
export class ClassificationDryRunController {
  constructor(private readonly dryRun: ClassificationDryRunService) {}

  @MemberRoute('classification.read')
  @Operation.Post('/', 'dryRunClassification', {
    summary:
      'Run argus on a sample or on the latest interrupts, with the saved rules or drafts; nothing is written',
    ok: DryRunResponse,
  })
  async run(@CurrentMember() member: MemberPrincipal, @Body() body: DryRunDto) {
    return {
      results: await this.dryRun.run({ ...body, organisationId: member.organisationId }),
    };
  }
}
