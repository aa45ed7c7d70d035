import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { InterlockBackend } from './lib/backend';
import { createInterlockMcpServer } from './lib/server';
import { MCP_SERVER_VERSION } from './lib/version';

// The README is what users copy: its configuration snippets must be valid JSON, and its tool
// table must name exactly the tools the server lists.
const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

describe('the package README', () => {
  it('has configuration snippets that are valid JSON, each naming the package (its tarball at /downloads) or the /mcp endpoint', () => {
    const blocks = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    for (const block of blocks) {
      expect(() => JSON.parse(block)).not.toThrow();
      expect(block).toMatch(
        /"@interlock\/mcp"|\/mcp"|\/downloads\/interlock-mcp-\d+\.\d+\.\d+\.tgz"/,
      );
    }
  });

  it('lists the tools the server has', async () => {
    // Listing tools reaches no backend.
    const server = createInterlockMcpServer({
      backend: {} as InterlockBackend,
      dashboardUrl: 'http://localhost:3000',
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'readme-check', version: '1.0.0' });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    await client.close();
    const documented = [
      ...readme.matchAll(/^\| `([a-z_]+) \{/gm),
      ...readme.matchAll(/ · `([a-z_]+) \{/g),
    ].map((m) => m[1]);
    expect(documented.sort()).toEqual(tools.map((t) => t.name).sort());
  });
});

describe('the version', () => {
  it("reported to clients is package.json's", () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(MCP_SERVER_VERSION).toBe(pkg.version);
  });
});
