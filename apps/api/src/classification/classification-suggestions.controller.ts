import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ClientIp, CurrentMember } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import { memberActorOf, type MemberPrincipal } from '../auth/principal';
import { IdParam } from '../http/id-param.pipe';
import { ClassificationSuggestionsService } from './classification-suggestions.service';
import { ClassificationRuleResponse } from './dto/classification-rule.dto';
import {
  ApplySuggestionDto,
  ClassificationSuggestionListResponse,
} from './dto/classification-suggestion.dto';
import { NoContent } from '../openapi/no-content.decorator';
import { Operation } from '../openapi/operation.decorator';

@Controller('api/classification/suggestions')
@ApiTags('classification')
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
  @MemberRoute('classification.manage')
  @Operation({
    operationId: 'applyClassificationSuggestion',
    summary: 'Make the suggested rule, in shadow or enforce mode',
    created: ClassificationRuleResponse,
  })
  apply(
    @CurrentMember() member: MemberPrincipal,
    @IdParam() id: string,
    @Body() body: ApplySuggestionDto,
    @ClientIp() ip: string | null,
  ): Promise<ClassificationRuleResponse> {
    return this.suggestions.apply(member.organisationId, memberActorOf(member), id, body.mode, ip);
  }

  @Post(':id/dismiss')
  @MemberRoute('classification.manage')
  @Operation({
    operationId: 'dismissClassificationSuggestion',
    summary: 'Dismiss a suggestion: it is not made again for this key, action and shape',
  })
  @NoContent()
  async dismiss(
    @CurrentMember() member: MemberPrincipal,
    @IdParam() id: string,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    await this.suggestions.dismiss(member.organisationId, memberActorOf(member), id, ip);
  }

  @Post(':id/restore')
  @MemberRoute('classification.manage')
  @Operation({
    operationId: 'restoreClassificationSuggestion',
    summary: 'Undo a dismissal: the suggestion is made again while the approvals still support it',
  })
  @NoContent()
  async restore(
    @CurrentMember() member: MemberPrincipal,
    @IdParam() id: string,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    await this.suggestions.restore(member.organisationId, memberActorOf(member), id, ip);
  }
}
