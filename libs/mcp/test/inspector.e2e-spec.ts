// The MCP Inspector's CLI mode against the built stdio server: it lists the tools (and finds no
// schema portability problem with --strict) and calls one, which waits while a human decides.
import { BIN, decide, live, openedInterrupt, runTag } from './support/live';
import { installInspector, runInspector } from './support/inspector';

describe('the MCP Inspector (CLI mode) against the stdio server', () => {
  let inspector: string;
  const server = () => [
    '-e',
    `INTERLOCK_API_KEY=${live.apiKey}`,
    '-e',
    `INTERLOCK_BASE_URL=${live.baseURL}`,
    process.execPath,
    BIN,
  ];

  beforeAll(() => {
    inspector = installInspector();
  }, 300_000);

  it('lists the tools, with schemas that pass its --strict portability check', async () => {
    const run = await runInspector(inspector, ['--strict', ...server(), '--method', 'tools/list']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 0,
      stderr: expect.not.stringMatching(/Issue:|Error/),
    });
    const { tools } = JSON.parse(run.stdout) as {
      tools: { name: string; inputSchema: { type: string } }[];
    };
    expect(tools.map((t) => t.name).sort()).toEqual([
      'ask_human',
      'end_session',
      'get_decision',
      'list_pending',
      'log_step',
      'permission_prompt',
      'request_approval',
      'start_session',
    ]);
  });

  it('calls request_approval, which returns the decision a human makes while it waits', async () => {
    const title = runTag('Inspector: deploy ');
    const calling = runInspector(inspector, [
      ...server(),
      '--method',
      'tools/call',
      '--tool-name',
      'request_approval',
      '--tool-arg',
      `title=${title}`,
      'actions=[{"name":"deploy","args":{"version":"1.4.2"}}]',
      'waitSeconds=30',
    ]);
    const opened = await openedInterrupt(title);
    await decide(opened.id, 'deploy', 'approve');
    const run = await calling;
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as {
      isError?: boolean;
      structuredContent: Record<string, unknown>;
    };
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({
      status: 'answered',
      interruptId: opened.id,
      decisions: [expect.objectContaining({ action: 'deploy', decision: 'approve' })],
    });
  });
});
