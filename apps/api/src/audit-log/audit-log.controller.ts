import { Controller, Get, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentApiKey, CurrentMember } from '../auth/decorators/current-principal.decorator';
import { MachineRoute, MemberRoute } from '../auth/decorators/route-access.decorator';
import type { ApiKeyPrincipal, MemberPrincipal } from '../auth/principal';
import { AuditEntryResponse } from './audit-entry.response';
import { AUDIT_CSV_COLUMNS, auditCsvRow, csvRow } from './audit-csv.util';
import { AuditLogService } from './audit-log.service';

@Controller('api/audit-log')
export class AuditLogController {
  constructor(private readonly auditLog: AuditLogService) {}

  /** SPEC §7: any valid key of a Pro organisation. */
  @Get()
  @MachineRoute({ plan: 'pro' })
  list(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Query() query: Record<string, unknown>,
  ): Promise<{ entries: AuditEntryResponse[]; nextCursor: string | null }> {
    return this.auditLog.list(key.organisationId, query);
  }

  /** The dashboard's CSV export: the 5,000 most recent entries matching the filters. */
  @Get('export')
  @MemberRoute('auditLog.export')
  async export(
    @CurrentMember() member: MemberPrincipal,
    @Query() query: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    const entries = await this.auditLog.recent(member.organisationId, query);
    res.status(200);
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`);
    res.write(csvRow(AUDIT_CSV_COLUMNS));
    for (let i = 0; i < entries.length; i += 500) {
      const chunk = entries.slice(i, i + 500).map(auditCsvRow).join('');
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end();
  }
}
