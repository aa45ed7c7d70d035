import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { lineBatching } from './log-destination.util';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('lineBatching', () => {
  it('writes the lines of one turn of the event loop together, at its end', async () => {
    const writes: string[] = [];
    const lines = lineBatching({ write: (text: string) => writes.push(text) });
    lines.write('{"a":1}\n');
    lines.write('{"b":2}\n');
    lines.write('{"c":3}\n');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['{"a":1}\n{"b":2}\n{"c":3}\n']);

    lines.write('{"d":4}\n');
    await nextTurn();
    await nextTurn();
    expect(writes).toEqual(['{"a":1}\n{"b":2}\n{"c":3}\n', '{"d":4}\n']);
  });

  it('writes what it holds at once when flushed, and never a line twice', async () => {
    const writes: string[] = [];
    const lines = lineBatching({ write: (text: string) => writes.push(text) });
    lines.write('{"a":1}\n');
    lines.flushSync();
    expect(writes).toEqual(['{"a":1}\n']);
    let flushed = false;
    lines.write('{"b":2}\n');
    lines.flush(() => (flushed = true));
    expect(flushed).toBe(true);
    await nextTurn();
    expect(writes).toEqual(['{"a":1}\n', '{"b":2}\n']);
  });

  it("standard output's lines reach it when the process exits in the same turn", () => {
    // The real destination in a process of its own, which exits before the turn ends.
    const script = buildSync({
      stdin: {
        contents: `
          import pino from 'pino';
          import { stdoutDestination } from './log-destination.util';
          const log = pino({ base: null }, stdoutDestination());
          for (let i = 0; i < 3; i++) log.info({ i }, 'line');
          process.exit(0);
        `,
        resolveDir: __dirname,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      external: ['pino'],
      write: false,
    }).outputFiles[0].text;
    const child = spawnSync(process.execPath, ['-e', script], {
      cwd: join(__dirname, '..', '..', '..', '..'),
      encoding: 'utf8',
    });
    expect(child.status).toBe(0);
    const lines = child.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { i: number; msg: string });
    expect(lines.map((l) => [l.i, l.msg])).toEqual([
      [0, 'line'],
      [1, 'line'],
      [2, 'line'],
    ]);
  });
});
