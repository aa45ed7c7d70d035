/** The server's version, reported to MCP clients at initialisation. Kept equal to package.json's. */
export const MCP_SERVER_VERSION = '0.1.0';
