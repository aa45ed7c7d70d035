import { Body } from '../http/validated-params';
import type { MemberCall } from '../auth/caller';
import { CurrentMember, MemberCaller } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { IdParam } from '../http/id-param.pipe';
import { ClassificationSuggestionsService } from './classification-suggestions.service';
import { ClassificationRuleResponse } from './dto/classification-rule.dto';
import {
  ApplySuggestionDto,
  ClassificationSuggestionListResponse,
} from './dto/classification-suggestion.dto';
import { ApiController, Operation } from '../openapi/operation.decorator';

@ApiController('api/classification/suggestions', 'classification')
@MemberRoute('classification.manage')
export class ClassificationSuggestionsController {
  constructor(private readonly suggestions: ClassificationSuggestionsService) {}

  @MemberRoute('classification.read')
  @Operation.Get('/', 'listClassificationSuggestions', {
    summary:
      'Rules argus suggests: actions people approved at least 5 times and never rejected in 30 days',
    ok: ClassificationSuggestionListResponse,
  })
  async list(@CurrentMember() member: MemberPrincipal) {
    return { suggestions: await this.suggestions.list(member.organisationId) };
  }

  @Operation.Post(':id/apply', 'applyClassificationSuggestion', {
    summary: 'Make the suggested rule, in shadow or enforce mode',
    created: ClassificationRuleResponse,
  })
  apply(
    @MemberCaller() caller: MemberCall,
    @IdParam() id: string,
    @Body() body: ApplySuggestionDto,
  ) {
    return this.suggestions.apply(caller, id, body.mode);
  }

  @Operation.Post(':id/dismiss', 'dismissClassificationSuggestion', {
    summary: 'Dismiss a suggestion: it is not made again for this key, action and shape',
    noContent: true,
  })
  async dismiss(@MemberCaller() caller: MemberCall, @IdParam() id: string) {
    await this.suggestions.dismiss(caller, id);
  }

  @Operation.Post(':id/restore', 'restoreClassificationSuggestion', {
    summary: 'Undo a dismissal: the suggestion is made again while the approvals still support it',
    noContent: true,
  })
  async restore(@MemberCaller() caller: MemberCall, @IdParam() id: string) {
    await this.suggestions.restore(caller, id);
  }
}
