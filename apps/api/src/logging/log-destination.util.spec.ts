import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { lineBatching } from './log-destination.util';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** TypeScript beside this file, bundled into one script for a process of its own (`node -e`). */
const bundled = (contents: string, external: string[] = []): string =>
  buildSync({
    stdin: { contents, resolveDir: __dirname, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external,
    write: false,
  }).outputFiles[0].text;

describe('lineBatching', () => {
  it('writes the lines of one turn of the event loop together, at its end', async () => {
    const writes: string[] = [];
    const lines = lineBatching({ write: (bytes: Buffer) => writes.push(bytes.toString('utf8')) });
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
    const lines = lineBatching({ write: (bytes: Buffer) => writes.push(bytes.toString('utf8')) });
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

  it("holds a turn's lines in one buffer, reused turn after turn, with bytes written straight into it", async () => {
    const writes: Buffer[] = [];
    const texts: string[] = [];
    const lines = lineBatching({
      write: (bytes: Buffer) => {
        writes.push(bytes);
        texts.push(bytes.toString('utf8'));
      },
    });
    lines.write('{"a":"é"}\n');
    const bytes = lines.turnBytes();
    bytes.ascii('{"b":');
    bytes.string('ü "x"');
    bytes.ascii('}\n');
    lines.write('{"c":3}\n');
    await nextTurn();
    expect(lines.turnBytes()).toBe(bytes);
    bytes.ascii('{"d":4}\n');
    await nextTurn();
    expect(texts).toEqual(['{"a":"é"}\n{"b":"ü \\"x\\""}\n{"c":3}\n', '{"d":4}\n']);
    expect(writes[1].buffer).toBe(writes[0].buffer);
  });

  it("standard output's lines reach it when the process exits in the same turn", () => {
    // The real destination in a process of its own, which exits before the turn ends.
    const script = bundled(
      `
          import pino from 'pino';
          import { stdoutDestination } from './log-destination.util';
          const log = pino({ base: null }, stdoutDestination());
          for (let i = 0; i < 3; i++) log.info({ i }, 'line');
          process.exit(0);
        `,
      ['pino'],
    );
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

  it("carries on without logging when standard output's reader has gone (EPIPE), as pino's destination did", async () => {
    // The child logs only once this side has closed its end of the child's standard output.
    const script = bundled(
      `
          import pino from 'pino';
          import { stdoutDestination } from './log-destination.util';
          const log = pino({ base: null }, stdoutDestination());
          process.stdin.once('data', () => {
            log.info('first line, to a pipe nobody reads');
            setImmediate(() => {
              log.info('second line');
              setImmediate(() => {
                process.stderr.write('still serving\\n');
                process.exit(0);
              });
            });
          });
        `,
      ['pino'],
    );
    const child = spawn(process.execPath, ['-e', script], {
      cwd: join(__dirname, '..', '..', '..', '..'),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      await new Promise<void>((resolve) => {
        child.stdout.once('close', resolve);
        child.stdout.destroy();
      });
      child.stdin.write('go\n');
      expect(await exited).toBe(0);
      expect(stderr).toBe('still serving\n');
    } finally {
      child.kill();
    }
  }, 60_000);
});

describe('writeFully', () => {
  it('writes all of a text to a full non-blocking pipe: the rest of a partial write, again after EAGAIN', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'write-fully-'));
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    // Over four times a pipe's 64 KiB, with letters of two and four bytes: a write stops mid-letter.
    const unit = 'line é 😀 ';
    const repeat = 30_000;
    // The writer in a process of its own (writeFully holds its thread while the pipe is full). It
    // opens the pipe read-write and non-blocking, so it needs no reader to open it and a full
    // pipe answers EAGAIN; this test starts reading only once the writer has begun: its first
    // write fills the pipe, and the next ones wait for room.
    const script = bundled(`
          import { constants, openSync } from 'node:fs';
          import { writeFully } from './log-destination.util';
          const fd = openSync(process.argv[1], constants.O_RDWR | constants.O_NONBLOCK);
          process.stderr.write('writing\\n');
          writeFully(fd, ${JSON.stringify(unit)}.repeat(${repeat}));
        `);
    const writer = spawn(process.execPath, ['-e', script, fifo], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const exited = new Promise<number | null>((resolve) => writer.on('exit', resolve));
      await new Promise<void>((resolve, reject) => {
        writer.stderr.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('writing')) resolve();
        });
        writer.on('exit', () => reject(new Error('the writer exited before writing')));
      });
      const received: Buffer[] = [];
      // The read side ends when the writer's process exits (the pipe's last writer gone).
      for await (const chunk of createReadStream(fifo)) received.push(chunk as Buffer);
      expect(await exited).toBe(0);
      expect(Buffer.concat(received).equals(Buffer.from(unit.repeat(repeat)))).toBe(true);
    } finally {
      writer.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
