import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const root = join(__dirname, '..', '..');

interface LintMessage {
  ruleId: string | null;
  severity: number;
  message: string;
}

/**
 * Lints probe sources as if they lived at a path of the repository, with its real ESLint config,
 * in one ESLint process for the whole spec file (probe-lint-server.mjs), started at the first
 * probe; `close` in afterAll.
 */
export function probeLinter() {
  let server: ChildProcessWithoutNullStreams | undefined;
  let stderr = '';
  let nextId = 0;
  const waiting = new Map<
    number,
    { resolve: (messages: LintMessage[]) => void; reject: (e: Error) => void }
  >();

  const start = () => {
    const child = spawn(process.execPath, [join(__dirname, 'probe-lint-server.mjs')], {
      cwd: root,
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const { id, messages } = JSON.parse(line) as { id: number; messages: LintMessage[] };
      waiting.get(id)?.resolve(messages);
      waiting.delete(id);
    });
    child.on('exit', (code, signal) => {
      for (const { reject } of waiting.values())
        reject(
          new Error(`the probe linter ended (${code ?? signal}) before answering:\n${stderr}`),
        );
      waiting.clear();
    });
    return child;
  };

  return {
    /** The messages of `ruleId` at severity "error" for `source` linted as `filePath`. */
    async errors(filePath: string, source: string, ruleId: string): Promise<string[]> {
      server ??= start();
      const id = nextId++;
      const answered = new Promise<LintMessage[]>((resolve, reject) =>
        waiting.set(id, { resolve, reject }),
      );
      server.stdin.write(`${JSON.stringify({ id, filePath, source })}\n`);
      const messages = await answered;
      return messages.filter((m) => m.ruleId === ruleId && m.severity === 2).map((m) => m.message);
    },
    async close(): Promise<void> {
      if (server === undefined || server.exitCode !== null || server.signalCode !== null) return;
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.stdin.end();
      await exited;
    },
  };
}
