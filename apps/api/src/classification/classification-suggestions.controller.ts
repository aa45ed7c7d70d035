import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
import { Operation } from '../openapi/operation.decorator';

@Controller('api/classification/suggestions')
@ApiTags('classification')
@MemberRoute('classification.manage')
export class ClassificationSuggestionsController {
  constructor(private readonly suggestions: ClassificationSuggestionsService) {}

  @Get()
  @MemberRoute('classification.read')
  @Operation({
    operationId: 'listClassificationSuggestions',
    summary:
      'Rules argus suggests: actions people approved at least 5 times and never rejected in 30 days',
    ok: ClassificationSuggestionListResponse,
  })
  async list(
    @CurrentMember() member: MemberPrincipal,
  ): Promise<ClassificationSuggestionListResponse> {
    return { suggestions: await this.suggestions.list(member.organisationId) };
  }

  @Post(':id/apply')
  @Operation({
    operationId: 'applyClassificationSuggestion',
    summary: 'Make the suggested rule, in shadow or enforce mode',
    created: ClassificationRuleResponse,
  })
  apply(
    @MemberCaller() caller: MemberCall,
    @IdParam() id: string,
    @Body() body: ApplySuggestionDto,
  ): Promise<ClassificationRuleResponse> {
    return this.suggestions.apply(caller, id, body.mode);
  }

  @Post(':id/dismiss')
  @Operation({
    operationId: 'dismissClassificationSuggestion',
    summary: 'Dismiss a suggestion: it is not made again for this key, action and shape',
    noContent: true,
  })
  async dismiss(@MemberCaller() caller: MemberCall, @IdParam() id: string): Promise<void> {
    await this.suggestions.dismiss(caller, id);
  }

  @Post(':id/restore')
  @Operation({
    operationId: 'restoreClassificationSuggestion',
    summary: 'Undo a dismissal: the suggestion is made again while the approvals still support it',
    noContent: true,
  })
  async restore(@MemberCaller() caller: MemberCall, @IdParam() id: string): Promise<void> {
    await this.suggestions.restore(caller, id);
  }
}
