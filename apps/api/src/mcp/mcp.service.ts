import { Inject, Injectable } from '@nestjs/common';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ApiKeyVerifier } from '../api-keys/api-key-verifier.service';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { InterruptLifecycleService } from '../interrupts/interrupt-lifecycle.service';
import { InterruptsService } from '../interrupts/interrupts.service';
import { SessionsService } from '../sessions/sessions.service';
import type * as McpProtocolCode from './mcp-protocol';
import type { McpCaller } from './service-backend';

/** The MCP protocol's code (mcp-protocol.ts), loaded by the first `/mcp` request. */
type McpProtocol = typeof McpProtocolCode;

/** One `/mcp` request's server and the transport it answers on. */
export interface McpExchange {
  server: McpServer;
  transport: StreamableHTTPServerTransport;
}

/** Reads of an interrupt while a tool waits: a primary-key lookup, so once a second is cheap. */
const POLL_INTERVAL_MS = 1_000;

/**
 * Waits one API key may hold open at once on this instance (issue 34, item 2): each polls the
 * database while it waits, so a batch of a hundred `get_decision` calls must not become a
 * hundred pollers. A call past the cap answers at once, pending, saying it did not wait.
 */
export const MCP_MAX_WAITS_PER_KEY = 10;

/**
 * The Interlock MCP server (libs/mcp) on the service's own code: one server per `/mcp` request,
 * bound to the key that authenticated it (re-verified on every call). The transport — the
 * request, the response, Streamable HTTP — is McpController's; nothing is kept between requests,
 * so any instance can answer any request and no session outlives a revoked key.
 */
@Injectable()
export class McpService {
  private readonly stopping = new AbortController();
  /** Waits open per API key id, on this instance. */
  private readonly waits = new Map<string, number>();
  /** Loaded once, by the first request (issue 28: a process serving no MCP never holds the SDK). */
  private protocol: Promise<McpProtocol> | undefined;

  constructor(
    private readonly interrupts: InterruptsService,
    private readonly lifecycle: InterruptLifecycleService,
    private readonly sessions: SessionsService,
    private readonly verifier: ApiKeyVerifier,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The server and transport of one request of `caller`; `onError` hears what a tool failed on
   * (for the request's log).
   */
  async exchange(
    caller: McpCaller,
    apiKeyId: string,
    onError: (error: unknown) => void,
  ): Promise<McpExchange> {
    // A load that failed (a transient file-system error, say) is not kept: the next request retries.
    const protocol = await (this.protocol ??= import('./mcp-protocol').catch((error: unknown) => {
      this.protocol = undefined;
      throw error;
    }));
    const deps = {
      interrupts: this.interrupts,
      lifecycle: this.lifecycle,
      sessions: this.sessions,
      verifier: this.verifier,
    };
    const server = protocol.serverOf(deps, caller, {
      dashboardUrl: this.config.dashboardUrl,
      pollIntervalMs: POLL_INTERVAL_MS,
      stopWaiting: this.stopping.signal,
      onError,
      acquireWait: () => this.acquireWait(apiKeyId),
    });
    return { server, transport: protocol.statelessTransport() };
  }

  /** A wait slot of the key, with its release; undefined when the key holds MCP_MAX_WAITS_PER_KEY already. */
  private acquireWait(apiKeyId: string): (() => void) | undefined {
    const open = this.waits.get(apiKeyId) ?? 0;
    if (open >= MCP_MAX_WAITS_PER_KEY) return undefined;
    this.waits.set(apiKeyId, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.waits.get(apiKeyId) ?? 1) - 1;
      if (left === 0) this.waits.delete(apiKeyId);
      else this.waits.set(apiKeyId, left);
    };
  }

  /** Shutting down: tools waiting for a human answer "pending" now instead of holding the drain. */
  stopWaiting(): void {
    this.stopping.abort();
  }
}
