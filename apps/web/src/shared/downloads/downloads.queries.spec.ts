import { installCommands, type DownloadablePackage } from './downloads.queries';

const pkg = (name: string, kind: 'npm' | 'python', file: string): DownloadablePackage => ({
  name,
  kind,
  version: '0.1.0',
  file,
  path: `/downloads/${file}`,
  sha256: '0'.repeat(64),
  size: 1,
});

describe('installCommands', () => {
  it('gives the npm, pip and MCP commands for what this server serves, at its origin', () => {
    const commands = installCommands('https://interlock.example.com', [
      pkg('@interlock/sdk', 'npm', 'interlock-sdk-0.1.0.tgz'),
      pkg('interlock-sdk', 'python', 'interlock_sdk-0.1.0-py3-none-any.whl'),
      pkg('@interlock/mcp', 'npm', 'interlock-mcp-0.1.0.tgz'),
    ]);
    expect(commands.npm).toBe(
      'npm install https://interlock.example.com/downloads/interlock-sdk-0.1.0.tgz',
    );
    expect(commands.pip).toBe(
      'pip install https://interlock.example.com/downloads/interlock_sdk-0.1.0-py3-none-any.whl',
    );
    expect(JSON.parse(commands.mcp ?? '')).toEqual({
      mcpServers: {
        interlock: {
          command: 'npx',
          args: ['-y', 'https://interlock.example.com/downloads/interlock-mcp-0.1.0.tgz'],
          env: { INTERLOCK_API_KEY: 'ilk_…', INTERLOCK_BASE_URL: 'https://interlock.example.com' },
        },
      },
    });
  });

  it('offers only what was built', () => {
    expect(
      installCommands('http://localhost:3000', [
        pkg('@interlock/sdk', 'npm', 'interlock-sdk-0.1.0.tgz'),
      ]),
    ).toEqual({
      npm: 'npm install http://localhost:3000/downloads/interlock-sdk-0.1.0.tgz',
      pip: undefined,
      mcp: undefined,
    });
    expect(installCommands('http://localhost:3000', [])).toEqual({
      npm: undefined,
      pip: undefined,
      mcp: undefined,
    });
  });
});
