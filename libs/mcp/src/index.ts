// @interlock/mcp — the public entry: the MCP server and the ways it reaches Interlock.
export { createInterlockMcpServer } from './lib/server';
export type { InterlockMcpServerOptions } from './lib/server';
export { InterlockBackendError } from './lib/backend';
export type {
  BackendErrorDetails,
  CallOptions,
  CreateOptions,
  Created,
  InterlockBackend,
  KeyIdentity,
} from './lib/backend';
export { SdkBackend } from './lib/sdk-backend';
export type { SdkBackendOptions } from './lib/sdk-backend';
export { readStdioConfig, StdioConfigError } from './lib/stdio-config';
export type { StdioConfig } from './lib/stdio-config';
export { DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS } from './lib/schemas';
export { MCP_SERVER_VERSION } from './lib/version';
