import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { InterruptsModule } from '../interrupts/interrupts.module';
import { SessionsModule } from '../sessions/sessions.module';
import { McpController } from './mcp.controller';
import { McpService } from './mcp.service';

/** `/mcp`: the Interlock MCP server (libs/mcp) over Streamable HTTP, on the service's own code. */
@Module({
  imports: [ApiKeysModule, InterruptsModule, SessionsModule],
  controllers: [McpController],
  providers: [McpService],
  exports: [McpService],
})
export class McpModule {}
