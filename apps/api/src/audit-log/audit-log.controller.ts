import { Res } from '@nestjs/common';
import { RawQuery } from '../http/validated-params';
import { ApiOkResponse, ApiProduces, ApiQuery } from '@nestjs/swagger';
import { type HttpResponse, takeResponse } from '../http/platform';
import { ACTOR_TYPES, AUDIT_CATEGORIES, JsonText, TARGET_TYPES } from '@interlock/domain';
import { CurrentCaller, CurrentMember } from '../auth/decorators/current-principal.decorator';
import { MachineOrMemberRoute, MemberRoute } from '../auth/decorators/route-access.decorator';
import type { ApiKeyPrincipal, MemberPrincipal } from '../auth/principal';
import { AuditLogPage } from './audit-entry.response';
import { AUDIT_CSV_COLUMNS, auditCsvRow, csvRow } from './audit-csv.util';
import { AuditLogService } from './audit-log.service';
import { ApiController, Operation } from '../openapi/operation.decorator';

/** The query parameters both endpoints share (SPEC §7). */
const AuditFilters =
  () => (target: object, key: string | symbol, descriptor: PropertyDescriptor) => {
    for (const decorate of [
      ApiQuery({
        name: 'q',
        required: false,
        type: String,
        description: 'Word prefixes; every word must match (summary, actor, target, action).',
        schema: { type: 'string', maxLength: 200 },
      }),
      ApiQuery({
        name: 'category',
        required: false,
        enum: AUDIT_CATEGORIES,
        enumName: 'AuditCategory',
      }),
      ApiQuery({
        name: 'action',
        required: false,
        type: String,
        example: 'api_key.created',
        schema: { type: 'string', maxLength: 200, pattern: '^[a-z_]+\\.[a-z_]+$' },
      }),
      ApiQuery({ name: 'actorType', required: false, enum: ACTOR_TYPES, enumName: 'ActorType' }),
      ApiQuery({
        name: 'actorId',
        required: false,
        type: String,
        schema: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' },
      }),
      ApiQuery({ name: 'targetType', required: false, enum: TARGET_TYPES, enumName: 'TargetType' }),
      ApiQuery({
        name: 'targetId',
        required: false,
        type: String,
        schema: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' },
      }),
      ApiQuery({
        name: 'from',
        required: false,
        type: String,
        description: 'ISO 8601, inclusive.',
        schema: { type: 'string', format: 'date-time' },
      }),
      ApiQuery({
        name: 'to',
        required: false,
        type: String,
        description: 'ISO 8601, exclusive.',
        schema: { type: 'string', format: 'date-time' },
      }),
    ]) {
      decorate(target, key, descriptor);
    }
  };

@ApiController('api/audit-log', 'audit-log')
export class AuditLogController {
  constructor(private readonly auditLog: AuditLogService) {}

  /**
   * SPEC §7: any valid key of a Pro organisation; and the dashboard's view, for members holding
   * auditLog.read on every plan (SPEC §5 (D), docs/DECISIONS.md).
   */
  @MachineOrMemberRoute('auditLog.read', { plan: 'pro' })
  @Operation.Get('/', 'listAuditLog', {
    summary:
      "The organisation's audit entries, newest first (keys: Pro; members with auditLog.read: every plan)",
  })
  @AuditFilters()
  @ApiQuery({
    name: 'cursor',
    required: false,
    type: String,
    description: 'The previous nextCursor; repeat every other parameter unchanged.',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
  })
  @ApiOkResponse({ type: AuditLogPage })
  list(
    @CurrentCaller() caller: ApiKeyPrincipal | MemberPrincipal,
    @RawQuery() query: Record<string, unknown>,
  ): Promise<JsonText<AuditLogPage>> {
    return this.auditLog.list(caller.organisationId, query);
  }

  /** The dashboard's CSV export: the 5,000 most recent entries matching the filters. */
  @MemberRoute('auditLog.export')
  @Operation.Get('export', 'exportAuditLog', {
    summary: 'The 5,000 most recent matching entries as CSV',
  })
  @AuditFilters()
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'RFC 4180 CSV with a header row.', schema: { type: 'string' } })
  async export(
    @CurrentMember() member: MemberPrincipal,
    @RawQuery() query: Record<string, unknown>,
    @Res() reply: HttpResponse,
  ): Promise<void> {
    const entries = await this.auditLog.recent(member.organisationId, query);
    const res = takeResponse(reply);
    res.statusCode = 200;
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader(
      'content-disposition',
      `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    res.write(csvRow(AUDIT_CSV_COLUMNS));
    for (let i = 0; i < entries.length; i += 500) {
      const chunk = entries
        .slice(i, i + 500)
        .map(auditCsvRow)
        .join('');
      if (!res.write(chunk)) {
        // Wait for the client to take more, or for it to go away.
        await new Promise((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
        if (res.destroyed) return;
      }
    }
    res.end();
  }
}
