import { HttpCode } from '@nestjs/common';
import { Body, Query } from '../http/validated-params';
import { ApiAcceptedResponse, ApiConflictResponse, ApiExtraModels } from '@nestjs/swagger';
import type { MemberCall } from '../auth/caller';
import { CurrentMember, MemberCaller } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import { IdParam } from '../http/id-param.pipe';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { ListWebhookDeliveriesQuery } from './dto/list-webhook-deliveries.query';
import { UpdateWebhookDto } from './dto/update-webhook.dto';
import {
  WebhookDeliveryListResponse,
  WebhookDeliveryResponse,
} from './dto/webhook-delivery.response';
import { WEBHOOK_EVENT_SCHEMAS, WebhookTestData } from './dto/webhook-event.schema';
import {
  WebhookListResponse,
  WebhookResponse,
  WebhookWithSecretResponse,
} from './dto/webhook.response';
import { WebhooksService } from './webhooks.service';
import { CostlyWrite } from '../rate-limits/costly-write.decorator';
import { ApiController, Operation } from '../openapi/operation.decorator';

/** Webhook management (SPEC §6, §8a): human-only, webhook.manage. */
@ApiController('api/webhooks', 'webhooks')
@ApiExtraModels(WebhookTestData, ...Object.values(WEBHOOK_EVENT_SCHEMAS))
@MemberRoute('webhook.manage')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Operation.Get('/', 'listWebhooks', {
    summary: "List the organisation's webhooks (never their secrets)",
    ok: WebhookListResponse,
  })
  async list(@CurrentMember() member: MemberPrincipal) {
    return { webhooks: await this.webhooks.list(member.organisationId) };
  }

  @Operation.Post('/', 'createWebhook', {
    summary: 'Create a webhook; its signing secret is in this response only',
    created: WebhookWithSecretResponse,
  })
  create(@MemberCaller() caller: MemberCall, @Body() body: CreateWebhookDto) {
    return this.webhooks.create({ webhook: body, ...caller });
  }

  @Operation.Get(':id', 'getWebhook', { summary: 'One webhook', ok: WebhookResponse })
  get(@CurrentMember() member: MemberPrincipal, @IdParam() id: string) {
    return this.webhooks.get(member.organisationId, id);
  }

  @Operation.Patch(':id', 'updateWebhook', {
    summary: 'Change the URL, description, event types, or enable / disable',
    ok: WebhookResponse,
  })
  update(
    @MemberCaller() caller: MemberCall,
    @IdParam() id: string,
    @Body() body: UpdateWebhookDto,
  ) {
    return this.webhooks.update({ webhookId: id, changes: body, ...caller });
  }

  @Operation.Delete(':id', 'deleteWebhook', {
    summary: 'Delete a webhook and its deliveries',
    noContent: 'Deleted.',
  })
  async remove(@MemberCaller() caller: MemberCall, @IdParam() id: string) {
    await this.webhooks.remove(caller, id);
  }

  @Operation.Post(':id/rotate-secret', 'rotateWebhookSecret', {
    summary:
      'A new signing secret, in this response only; the previous one keeps signing beside it for 24 hours',
    ok: WebhookWithSecretResponse,
  })
  rotateSecret(@MemberCaller() caller: MemberCall, @IdParam() id: string) {
    return this.webhooks.rotateSecret(caller, id);
  }

  @CostlyWrite('webhook_test')
  @HttpCode(202)
  @Operation.Post(':id/test', 'testWebhook', {
    summary: 'Queue a webhook.test event to this webhook (sent even while it is disabled)',
  })
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse })
  test(
    @MemberCaller() caller: MemberCall,
    @IdParam() id: string,
  ): Promise<WebhookDeliveryResponse> {
    return this.webhooks.sendTest(caller, id);
  }

  @Operation.Get(':id/deliveries', 'listWebhookDeliveries', {
    summary: "The webhook's deliveries, newest first, with their attempts",
    ok: WebhookDeliveryListResponse,
  })
  deliveries(
    @CurrentMember() member: MemberPrincipal,
    @IdParam() id: string,
    @Query() query: ListWebhookDeliveriesQuery,
  ) {
    return this.webhooks.listDeliveries({
      organisationId: member.organisationId,
      webhookId: id,
      listing: query,
    });
  }

  @HttpCode(202)
  @Operation.Post(':id/deliveries/:deliveryId/retry', 'retryWebhookDelivery', {
    summary: 'Send a succeeded or failed delivery again, now (one more attempt)',
  })
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse })
  @ApiConflictResponse({
    description:
      'CONFLICT: the delivery is still waiting to be sent, or the webhook is disabled (a webhook.test delivery excepted).',
  })
  retry(
    @MemberCaller() caller: MemberCall,
    @IdParam() id: string,
    @IdParam('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryResponse> {
    return this.webhooks.retryDelivery(caller, id, deliveryId);
  }
}
