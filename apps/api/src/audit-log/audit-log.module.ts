import { Module } from '@nestjs/common';
import { AuditLogController } from './audit-log.controller';
import { AuditLogService } from './audit-log.service';

@Module({ controllers: [AuditLogController], providers: [AuditLogService], exports: [AuditLogService] })
export class AuditLogModule {}
