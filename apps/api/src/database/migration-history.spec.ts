import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QueryRunner } from 'typeorm';
import { MIGRATIONS } from './migrations';
import HISTORY from './migration-history.json';

/**
 * What a migration sends, up and down: each call on the query runner with its arguments, the
 * runner answering every call with no rows (a statement that then cannot go on is written down
 * as where it stopped, with the error's name).
 */
async function statementsOf(migration: (typeof MIGRATIONS)[number]): Promise<string> {
  const sent: string[] = [];
  const runner = new Proxy({} as QueryRunner, {
    get: (_target, call) =>
      call === 'then'
        ? undefined
        : (...args: unknown[]) => {
            sent.push(`${String(call)} ${JSON.stringify(args)}`);
            return Promise.resolve([]);
          },
  });
  const instance = new migration();
  for (const phase of ['up', 'down'] as const) {
    sent.push(phase);
    // Where it stopped, not the error's words: those belong to Node and the compiler, not to us.
    await instance[phase](runner).catch((error: unknown) =>
      sent.push(`stopped: ${error instanceof Error ? error.name : typeof error}`),
    );
  }
  return createHash('sha256').update(sent.join('\n')).digest('hex');
}

// Migrations applied in the field are history: a shared helper may write a migration's
// statements, never change them. `migration-history.json` holds the fingerprint of what each
// migration sent when it was recorded; a new migration needs no entry until it lands, when
// `MIGRATION_HISTORY_RECORD=1 npx jest -c apps/api/jest.config.cjs migration-history` adds the
// missing ones (those recorded are kept as they are).
describe('migration history', () => {
  if (process.env.MIGRATION_HISTORY_RECORD === '1')
    it('records the migrations not recorded yet', async () => {
      const history: Record<string, string> = { ...HISTORY };
      for (const migration of MIGRATIONS) history[migration.name] ??= await statementsOf(migration);
      const file = join(__dirname, 'migration-history.json');
      writeFileSync(file, `${JSON.stringify(history, null, 2)}\n`);
    });

  it.each(Object.entries(HISTORY as Record<string, string>))(
    '%s sends what it sent',
    async (name, hash) => {
      const migration = MIGRATIONS.find((m) => m.name === name);
      if (migration === undefined) throw new Error(`${name} is not in the migrations' list`);
      expect(await statementsOf(migration)).toBe(hash);
    },
  );
});
