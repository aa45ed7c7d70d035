// The repository README's way to a key without the dashboard, run as printed (bash and curl)
// against the live service: sign up, then create a key with its required `expiry`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { live, raw } from './support/live-service';
import { readmeBlocks } from './support/readme';

const root = join(__dirname, '..', '..', '..');

it('signs up and creates a key with curl exactly as the README prints it', async () => {
  const [block] = readmeBlocks(join(root, 'README.md')).filter(
    (b) => b.lang === 'sh' && b.code.includes('/api/api-keys'),
  );
  expect(block).toBeDefined();
  const cwd = mkdtempSync(join(tmpdir(), 'interlock-readme-curl-'));
  try {
    // The README's address is this run's service; its sign-up email is fresh in this run's database.
    // --norc: Debian's bash reads /etc/bash.bashrc for a non-interactive shell whose stdin is a pipe.
    const result = spawnSync(
      'bash',
      ['--norc', '--noprofile', '-euo', 'pipefail', '-c', block.code],
      {
        cwd,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, INTERLOCK_BASE_URL: live.baseURL },
      },
    );
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    // Two JSON answers, one per line or back to back: the second is the key, shown once.
    const created = JSON.parse(`[${result.stdout.replace(/}\s*{/g, '},{')}]`) as Record<
      string,
      unknown
    >[];
    expect(created).toHaveLength(2);
    const key = created[1] as { key: string; name: string; createdAt: string; expiresAt: string };
    expect(key).toMatchObject({
      name: 'my agent',
      key: expect.stringMatching(/^ilk_[A-Za-z]{64}$/),
    });
    expect(Date.parse(key.expiresAt) - Date.parse(key.createdAt)).toBe(90 * 24 * 3600 * 1000);
    const whoami = await raw('GET', '/api/whoami', { headers: { 'x-api-key': key.key } });
    expect(whoami.status).toBe(200);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});
