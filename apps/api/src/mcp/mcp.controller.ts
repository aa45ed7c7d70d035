import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentApiKey } from '../auth/decorators/current-principal.decorator';
import { MachineRoute } from '../auth/decorators/route-access.decorator';
import type { ApiKeyPrincipal } from '../auth/principal';
import { ReadsRequestBody } from '../http/reads-request-body.decorator';
import { McpService } from './mcp.service';

/**
 * The Model Context Protocol over Streamable HTTP (SPEC §8c), for API keys: the guards refuse a
 * missing, invalid or expired key with the exact 401 of every machine endpoint before the
 * protocol is spoken. Not part of the REST contract (it speaks JSON-RPC), so not in openapi.json.
 */
@Controller('mcp')
@ApiExcludeController()
// The transport reads the JSON-RPC message from the request (GET and DELETE answer 405 whatever is sent).
@ReadsRequestBody()
export class McpController {
  constructor(private readonly mcp: McpService) {}

  @Post()
  @MachineRoute()
  async post(@CurrentApiKey() key: ApiKeyPrincipal, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.mcp.handle(key, req, res);
  }

  /**
   * The server is stateless: there is no stream of server-initiated messages to open (GET) and no
   * session to end (DELETE). The transport's answer for that is 405, which clients expect.
   */
  @Get()
  @MachineRoute()
  get(@Res() res: Response): void {
    methodNotAllowed(res);
  }

  @Delete()
  @MachineRoute()
  delete(@Res() res: Response): void {
    methodNotAllowed(res);
  }
}

function methodNotAllowed(res: Response): void {
  res
    .status(405)
    .set('allow', 'POST')
    .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
}
