/**
 * What only an MCP request needs — the MCP SDK's server and its Streamable HTTP transport (with
 * zod and ajv), libs/mcp's tools and the backend they call — in one module that McpService loads
 * on the first `/mcp` request: a process that serves no MCP request never holds them (issue 28:
 * RSS). Nothing else imports it but as types.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createInterlockMcpServer, type InterlockMcpServerOptions } from '@interlock/mcp';
import { ServiceBackend, type McpCaller, type ServiceBackendDeps } from './service-backend';

/** The server of one request of `caller`, its tools calling the service's own code. */
export function serverOf(
  deps: ServiceBackendDeps,
  caller: McpCaller,
  options: Omit<InterlockMcpServerOptions, 'backend'>,
): McpServer {
  return createInterlockMcpServer({ ...options, backend: new ServiceBackend(deps, caller) });
}

/** Stateless: one request's own transport, answering on its own response. */
export function statelessTransport(): StreamableHTTPServerTransport {
  return new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
}
