import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  type HttpRequest,
  type HttpResponse,
  nodeRequest,
  sendJson,
  takeResponse,
} from '../http/platform';
import { CurrentApiKey } from '../auth/decorators/current-principal.decorator';
import { MachineRoute } from '../auth/decorators/route-access.decorator';
import type { ApiKeyPrincipal } from '../auth/principal';
import { ReadsRequestBody } from '../http/reads-request-body.decorator';
import { requestIdOf } from '../http/request-state';
import { requestLog } from '../logging/logger';
import { ApiKeyBudgetService } from '../rate-limits/api-key-budget.service';
import { rateLimited } from '../rate-limits/rate-limited.error';
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
@MachineRoute()
export class McpController {
  constructor(
    private readonly mcp: McpService,
    private readonly budget: ApiKeyBudgetService,
  ) {}

  @Post()
  async post(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Req() req: HttpRequest,
    @Res() reply: HttpResponse,
  ): Promise<void> {
    // A JSON-RPC batch is as many calls as it holds messages: the guard spent one for the
    // request, the rest are spent here, and a batch the budget cannot cover is refused whole
    // with the 429 of every key request (issue 34, item 2).
    const messages = Array.isArray(req.body) ? req.body.length : 1;
    if (messages > 1) {
      const verdict = this.budget.admitMore(key.organisationId, messages - 1);
      if (verdict !== undefined && !verdict.allowed) {
        throw rateLimited(verdict.resetSeconds * 1000, {
          'ratelimit-policy': `${verdict.limit};w=${verdict.windowSeconds}`,
          'ratelimit-limit': String(verdict.limit),
          'ratelimit-remaining': '0',
          'ratelimit-reset': String(verdict.resetSeconds),
        });
      }
    }
    // The guards verified this header and built `key` from it; the backend re-verifies it per call.
    const caller = {
      rawKey: req.headers['x-api-key'] as string,
      ip: req.ip ?? null,
      requestId: requestIdOf(req),
    };
    // Stateless: this request's own server and transport, answering on its own response (JSON,
    // or a Server-Sent Events stream when a tool sends progress).
    const { server, transport } = await this.mcp.exchange(caller, key.apiKeyId, (error) =>
      requestLog(req).error({ err: error, organisationId: key.organisationId }, 'MCP tool failed'),
    );
    const res = takeResponse(reply);
    const close = () => {
      void transport.close();
      void server.close();
    };
    // The client went away while the protocol's code loaded (the first request): nothing to answer.
    if (res.destroyed) return close();
    // The client went away (or the answer is sent): stop any wait and free both.
    res.on('close', close);
    await server.connect(transport);
    await transport.handleRequest(nodeRequest(req), res, req.body);
  }

  /**
   * The server is stateless: there is no stream of server-initiated messages to open (GET) and no
   * session to end (DELETE). The transport's answer for that is 405, which clients expect.
   */
  @Get()
  get(@Res() res: HttpResponse): void {
    methodNotAllowed(res);
  }

  @Delete()
  delete(@Res() res: HttpResponse): void {
    methodNotAllowed(res);
  }
}

function methodNotAllowed(reply: HttpResponse): void {
  const res = takeResponse(reply);
  res.setHeader('allow', 'POST');
  sendJson(res, 405, {
    jsonrpc: '2.0',
    error: { code: -32000, message: 'Method not allowed.' },
    id: null,
  });
}
