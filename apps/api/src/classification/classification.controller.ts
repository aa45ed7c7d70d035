import { Body } from '../http/validated-params';
import type { MemberCall } from '../auth/caller';
import { CurrentMember, MemberCaller } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { IdParam } from '../http/id-param.pipe';
import { ClassificationRulesService } from './classification-rules.service';
import {
  ClassificationRuleListResponse,
  ClassificationRuleResponse,
  ClassificationRuleStatsResponse,
  CreateClassificationRuleDto,
  UpdateClassificationRuleDto,
} from './dto/classification-rule.dto';
import { ApiController, Operation } from '../openapi/operation.decorator';

@ApiController('api/classification/rules', 'classification')
@MemberRoute('classification.manage')
export class ClassificationController {
  constructor(private readonly rules: ClassificationRulesService) {}

  @MemberRoute('classification.read')
  @Operation.Get('/', 'listClassificationRules', {
    summary: "List the organisation's classification rules, in evaluation order",
    ok: ClassificationRuleListResponse,
  })
  async list(@CurrentMember() member: MemberPrincipal) {
    return { rules: await this.rules.list(member.organisationId) };
  }

  @Operation.Post('/', 'createClassificationRule', {
    summary: 'Create a classification rule',
    created: ClassificationRuleResponse,
  })
  create(@MemberCaller() caller: MemberCall, @Body() body: CreateClassificationRuleDto) {
    return this.rules.create({ rule: body, ...caller });
  }

  @MemberRoute('classification.read')
  @Operation.Get(':id', 'getClassificationRule', {
    summary: 'Read one classification rule',
    ok: ClassificationRuleResponse,
  })
  get(@CurrentMember() member: MemberPrincipal, @IdParam() id: string) {
    return this.rules.get(member.organisationId, id);
  }

  @MemberRoute('classification.read')
  @Operation.Get(':id/stats', 'getClassificationRuleStats', {
    summary:
      "A rule's statistics: matches, and in shadow mode how often people decided as it would have, with the disagreements",
    ok: ClassificationRuleStatsResponse,
  })
  stats(@CurrentMember() member: MemberPrincipal, @IdParam() id: string) {
    return this.rules.stats(member.organisationId, id);
  }

  @Operation.Patch(':id', 'updateClassificationRule', {
    summary: 'Change a classification rule (its mode, its match, its outcome…)',
    ok: ClassificationRuleResponse,
  })
  update(
    @MemberCaller() caller: MemberCall,
    @IdParam() id: string,
    @Body() body: UpdateClassificationRuleDto,
  ) {
    return this.rules.update({ ruleId: id, changes: body, ...caller });
  }

  @Operation.Delete(':id', 'deleteClassificationRule', {
    summary: 'Delete a classification rule',
    noContent: 'Deleted.',
  })
  async remove(@MemberCaller() caller: MemberCall, @IdParam() id: string) {
    await this.rules.remove(caller, id);
  }
}
