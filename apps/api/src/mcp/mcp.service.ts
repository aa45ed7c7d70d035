import { Inject, Injectable } from '@nestjs/common';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createInterlockMcpServer } from '@interlock/mcp';
import { ApiKeyVerifier } from '../api-keys/api-key-verifier.service';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { InterruptsService } from '../interrupts/interrupts.service';
import { SessionsService } from '../sessions/sessions.service';
import { McpCaller, ServiceBackend } from './service-backend';

/** Reads of an interrupt while a tool waits: a primary-key lookup, so once a second is cheap. */
const POLL_INTERVAL_MS = 1_000;

/**
 * The Interlock MCP server (libs/mcp) on the service's own code: one server per `/mcp` request,
 * bound to the key that authenticated it (re-verified on every call). The transport — the
 * request, the response, Streamable HTTP — is McpController's; nothing is kept between requests,
 * so any instance can answer any request and no session outlives a revoked key.
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

  /** A server for one request of `caller`; `onError` hears what a tool failed on (for the request's log). */
  serverFor(caller: McpCaller, onError: (error: unknown) => void): McpServer {
    const backend = new ServiceBackend({ interrupts: this.interrupts, sessions: this.sessions, verifier: this.verifier }, caller);
    return createInterlockMcpServer({
      backend,
      dashboardUrl: this.config.dashboardUrl,
      pollIntervalMs: POLL_INTERVAL_MS,
      stopWaiting: this.stopping.signal,
      onError,
    });
  }

  /** Shutting down: tools waiting for a human answer "pending" now instead of holding the drain. */
  stopWaiting(): void {
    this.stopping.abort();
  }
}
