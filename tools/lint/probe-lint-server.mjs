// One ESLint, with the repository's real config, for all of a spec file's probes
// (tools/lint/probe-linter.ts starts it): each line of stdin is a probe, {"id", "filePath",
// "source"}, linted as if it were that file; each line of stdout is its answer, {"id",
// "messages"}. The config is loaded once, where the CLI loaded it again for every probe (about
// a second of CPU each). A child process because the config's loading needs Node's own module
// loader, which Jest's runtime is not.
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

// stdout carries the answers only: whatever a plugin prints goes to stderr.
console.log = console.error;
console.info = console.error;
const eslint = new ESLint({ cwd: fileURLToPath(new URL('../..', import.meta.url)) });

for await (const line of createInterface({ input: process.stdin })) {
  const { id, filePath, source } = JSON.parse(line);
  const [report] = await eslint.lintText(source, { filePath });
  process.stdout.write(`${JSON.stringify({ id, messages: report.messages })}\n`);
}
