#!/usr/bin/env node
// `npx @interlock/mcp`: the Interlock MCP server over stdio, for one API key (INTERLOCK_API_KEY)
// of one organisation. stdout carries the protocol; anything for people goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SdkBackend } from './lib/sdk-backend';
import { createInterlockMcpServer } from './lib/server';
import { readStdioConfig, StdioConfigError } from './lib/stdio-config';
import { MCP_SERVER_VERSION } from './lib/version';

async function main(): Promise<void> {
  let config;
  try {
    config = readStdioConfig(process.env);
  } catch (error) {
    if (error instanceof StdioConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const stop = new AbortController();
  const server = createInterlockMcpServer({
    backend: new SdkBackend({
      apiKey: config.apiKey,
      baseURL: config.baseURL,
      userAgent: `interlock-mcp/${MCP_SERVER_VERSION}`,
    }),
    dashboardUrl: config.dashboardUrl,
    permissionWaitSeconds: config.permissionWaitSeconds,
    stopWaiting: stop.signal,
    onError: (error) =>
      process.stderr.write(
        `interlock-mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      ),
  });
  const transport = new StdioServerTransport();
  // The client closes stdin to stop the server: nobody is left to answer. A signal first ends
  // the waits, so that calls in flight answer "pending" (with their interruptId) before the exit.
  process.stdin.on('end', () => process.exit(0));
  const shutdown = () => {
    if (stop.signal.aborted) return;
    stop.abort();
    setTimeout(() => void server.close().finally(() => process.exit(0)), 1_000);
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  await server.connect(transport);
  process.stderr.write(
    `interlock-mcp ${MCP_SERVER_VERSION}: serving over stdio for ${config.baseURL}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `interlock-mcp failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
