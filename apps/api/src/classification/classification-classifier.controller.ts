import { HttpCode } from '@nestjs/common';
import { Body } from '../http/validated-params';
import { ApiBody, ApiOkResponse } from '@nestjs/swagger';
import type { MemberCall } from '../auth/caller';
import { CurrentMember, MemberCaller } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { ClassificationClassifierService } from './classification-classifier.service';
import {
  ClassifierSecretResponse,
  ClassifierSettingsResponse,
  ClassifierTestResponse,
  PutClassifierDto,
  SavedClassifierResponse,
  TestClassifierDto,
} from './dto/classifier.dto';
import { ApiController, Operation } from '../openapi/operation.decorator';

/** The organisation's external classifier (SPEC §8d): members only; a key gets the exact 403. */
@ApiController('api/classification/classifier', 'classification')
@MemberRoute('classification.manage')
export class ClassificationClassifierController {
  constructor(private readonly classifier: ClassificationClassifierService) {}

  @MemberRoute('classification.read')
  @Operation.Get('/', 'getClassifier', {
    summary: "The organisation's external classifier (never its secret); null when none is set up",
    ok: ClassifierSettingsResponse,
  })
  async get(@CurrentMember() member: MemberPrincipal) {
    return { classifier: await this.classifier.get(member.organisationId) };
  }

  @Operation.Put('/', 'putClassifier', {
    summary:
      'Set up or change the external classifier; the answer that sets it up carries its signing secret, once',
    ok: SavedClassifierResponse,
  })
  put(@MemberCaller() caller: MemberCall, @Body() body: PutClassifierDto) {
    return this.classifier.put({ ...body, ...caller });
  }

  @Operation.Delete('/', 'deleteClassifier', {
    summary: 'Remove the external classifier',
    noContent: true,
  })
  async remove(@MemberCaller() caller: MemberCall) {
    await this.classifier.remove(caller);
  }

  @Operation.Post('rotate-secret', 'rotateClassifierSecret', {
    summary: 'A new signing secret, shown once; the previous one signs beside it for 24 hours',
    ok: ClassifierSecretResponse,
  })
  rotate(@MemberCaller() caller: MemberCall) {
    return this.classifier.rotateSecret(caller);
  }

  @HttpCode(200)
  @Operation.Post('test', 'testClassifier', {
    summary: 'Ask the saved classifier about a sample action, as argus would, and show the answer',
  })
  // Every field has a default, so the body may be left out (the dashboard's Send a test does).
  @ApiBody({ type: TestClassifierDto, required: false })
  @ApiOkResponse({ type: ClassifierTestResponse })
  test(
    @CurrentMember() member: MemberPrincipal,
    @Body() body: TestClassifierDto,
  ): Promise<ClassifierTestResponse> {
    return this.classifier.test({ organisationId: member.organisationId, sample: body });
  }
}
