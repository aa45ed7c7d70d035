import { Body, Query } from '../http/validated-params';
import { DomainError, missingPermissionMessage } from '@interlock/domain';
import type { MemberCall } from '../auth/caller';
import { CurrentMember, MemberCaller } from '../auth/decorators/current-principal.decorator';
import { MemberRoute } from '../auth/decorators/route-access.decorator';
import type { MemberPrincipal } from '../auth/principal';
import {
  ListNotificationDeliveriesQuery,
  NotificationDeliveryListResponse,
} from './dto/notification-delivery.response';
import {
  NotificationPreferencesResponse,
  NotificationSettingsResponse,
  UpdateNotificationPreferencesDto,
  UpdateNotificationSettingsDto,
} from './dto/notification-preferences.dto';
import { NotificationSettingsService } from './notification-settings.service';
import { ApiController, Operation } from '../openapi/operation.decorator';

/** Settings → Notifications (issue 30): human-only. */
@ApiController('api/notifications', 'notifications')
export class NotificationsController {
  constructor(private readonly settings: NotificationSettingsService) {}

  @MemberRoute()
  @Operation.Get('preferences', 'getNotificationPreferences', {
    summary: 'Your notification preferences in this organisation, and what applies',
    ok: NotificationPreferencesResponse,
  })
  preferences(@CurrentMember() member: MemberPrincipal) {
    return this.settings.preferences(member.organisationId, member.memberId);
  }

  @MemberRoute()
  @Operation.Put('preferences', 'updateNotificationPreferences', {
    summary:
      'Set your time zone and preferences (a kind or channel left out follows the organisation)',
    ok: NotificationPreferencesResponse,
  })
  updatePreferences(
    @MemberCaller() caller: MemberCall,
    @Body() body: UpdateNotificationPreferencesDto,
  ) {
    return this.settings.updatePreferences({ changes: body, ...caller });
  }

  @MemberRoute()
  @Operation.Get('settings', 'getNotificationSettings', {
    summary: "The organisation's notification defaults",
    ok: NotificationSettingsResponse,
  })
  organisationSettings(@CurrentMember() member: MemberPrincipal) {
    return this.settings.settings(member.organisationId);
  }

  @MemberRoute('member.manage')
  @Operation.Patch('settings', 'updateNotificationSettings', {
    summary: "Replace the organisation's notification defaults",
    ok: NotificationSettingsResponse,
  })
  updateOrganisationSettings(
    @MemberCaller() caller: MemberCall,
    @Body() body: UpdateNotificationSettingsDto,
  ) {
    return this.settings.updateSettings({ changes: body, ...caller });
  }

  @MemberRoute()
  @Operation.Get('deliveries', 'listNotificationDeliveries', {
    summary: 'Recent notifications and their delivery status: yours, or (member.manage) everyone’s',
    ok: NotificationDeliveryListResponse,
  })
  async deliveries(
    @CurrentMember() member: MemberPrincipal,
    @Query() query: ListNotificationDeliveriesQuery,
  ) {
    const everyone = query.scope === 'organisation';
    if (everyone && !member.permissions.has('member.manage'))
      throw new DomainError('FORBIDDEN', missingPermissionMessage('member.manage'));
    return this.settings.deliveries(member.organisationId, everyone ? null : member.memberId, {
      cursor: query.cursor,
      limit: query.limit,
    });
  }
}
