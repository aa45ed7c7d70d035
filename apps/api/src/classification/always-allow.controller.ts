import { Body } from '../http/validated-params';
import type { MemberCall } from '../auth/caller';
import { MemberCaller } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import { AlwaysAllowService } from './always-allow.service';
import { ClassificationRuleResponse } from './dto/classification-rule.dto';
import { AlwaysAllowDto } from './dto/always-allow.dto';
import { ApiController, Operation } from '../openapi/operation.decorator';

@ApiController('api/classification/always-allow', 'classification')
export class AlwaysAllowController {
  constructor(private readonly alwaysAllow: AlwaysAllowService) {}

  @MemberRoute('classification.manage')
  @Operation.Post('/', 'alwaysAllowAction', {
    summary:
      "Always allow this: an enforce rule approving this action from this interrupt's key, with these argument conditions, until it expires",
    created: ClassificationRuleResponse,
  })
  create(@MemberCaller() caller: MemberCall, @Body() body: AlwaysAllowDto) {
    return this.alwaysAllow.create({ ...body, ...caller });
  }
}
