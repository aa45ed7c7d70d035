import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createInterlockMcpServer } from '@interlock/mcp';
import { ApiKeyVerifier } from '../api-keys/api-key-verifier.service';
import type { ApiKeyPrincipal } from '../auth/principal';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { requestIdOf } from '../http/request-id.middleware';
import { requestLog } from '../logging/logger';
import { InterruptsService } from '../interrupts/interrupts.service';
import { SessionsService } from '../sessions/sessions.service';
import { ServiceBackend } from './service-backend';

/** Reads of an interrupt while a tool waits: a primary-key lookup, so once a second is cheap. */
const POLL_INTERVAL_MS = 1_000;

/**
 * Serves the MCP Streamable HTTP transport at `/mcp`, statelessly: every POST gets its own
 * server and transport, bound to the key that authenticated it, and answers on its own response
 * (JSON, or a Server-Sent Events stream when the tool sends progress). Nothing is kept between
 * requests, so any instance can answer any request and no session outlives a revoked key.
 */
@Injectable()
export class McpService {
  private readonly stopping = new AbortController();

  constructor(
    private readonly interrupts: InterruptsService,
    private readonly sessions: SessionsService,
    private readonly verifier: ApiKeyVerifier,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async handle(key: ApiKeyPrincipal, req: Request, res: Response): Promise<void> {
    // The guards verified this header and built `key` from it; the backend re-verifies it per call.
    const rawKey = req.headers['x-api-key'] as string;
    const backend = new ServiceBackend(
      { interrupts: this.interrupts, sessions: this.sessions, verifier: this.verifier },
      { rawKey, ip: req.ip ?? null, requestId: requestIdOf(req) },
    );
    const server = createInterlockMcpServer({
      backend,
      dashboardUrl: this.config.dashboardUrl,
      pollIntervalMs: POLL_INTERVAL_MS,
      stopWaiting: this.stopping.signal,
      onError: (error) => requestLog(req).error({ err: error, organisationId: key.organisationId }, 'MCP tool failed'),
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    // The client went away (or the answer is sent): stop any wait and free both.
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  /** Shutting down: tools waiting for a human answer "pending" now instead of holding the drain. */
  stopWaiting(): void {
    this.stopping.abort();
  }
}
