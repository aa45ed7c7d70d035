import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { api, baseURL, unique } from './support/service';

/**
 * The agent's resume endpoint, on loopback (http is allowed there outside production): the first
 * POST is answered 500; the second is held until `release()` (or 8 s, below the service's 10 s
 * timeout: `letGo()` says whether it came to that) and answered 200.
 */
async function resumeEndpoint(): Promise<{
  url: string;
  server: Server;
  posts: () => number;
  release: () => void;
  letGo: () => boolean;
}> {
  let posts = 0;
  let letGo = false;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      posts++;
      if (posts === 1) {
        res.writeHead(500).end('not yet');
        return;
      }
      const held = setTimeout(() => {
        letGo = true;
        release();
      }, 8_000);
      void released.then(() => {
        clearTimeout(held);
        res.writeHead(200).end('resumed');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/resume/${unique('run')}`,
    server,
    posts: () => posts,
    release: () => release(),
    letGo: () => letGo,
  };
}

test.describe('Resuming the agent', () => {
  test("the interrupt page shows where its resumeUrl's POST stands: waiting, the failed attempt, delivered", async ({
    page,
    owner,
  }) => {
    // The failed attempt is read off the page while the second POST is held, and the hold ends
    // after 8 s (the service gives up on an attempt after 10): on a machine too loaded to read
    // the page by then, the page may already say delivered, and the whole story is told again
    // with a new interrupt, up to three times.
    test.setTimeout(3 * 90_000);
    for (let round = 1; ; round++) {
      if (await resumeStory(page, owner.cookie)) return;
      if (round === 3)
        throw new Error('three times the endpoint let the second POST go before the page was read');
    }
  });
});

/** The story, told once: false when the endpoint had to let the second POST go too early. */
async function resumeStory(page: Page, cookie: string): Promise<boolean> {
  const endpoint = await resumeEndpoint();
  try {
    const { body: created } = await api<{ key: string }>('POST', '/api/api-keys', {
      cookie,
      body: { name: unique('resume-agent'), expiry: 'never' },
    });
    const opened = await fetch(`${baseURL}/api/interrupts`, {
      method: 'POST',
      headers: { 'x-api-key': created.key, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: unique('Resume the deploy run'),
        actionRequests: [{ name: 'deploy', args: { build: 42 } }],
        resumeUrl: endpoint.url,
      }),
    });
    expect(opened.status).toBe(201);
    const { id } = (await opened.json()) as { id: string };

    await page.goto(`/interrupts/${id}`);
    const panel = page.getByRole('region', { name: 'Resuming the agent' });
    await expect(panel.getByTestId('resume-status')).toHaveText('Waiting');
    await expect(panel).not.toContainText('Last attempt');

    const decided = await api('POST', `/api/interrupts/${id}/decisions`, {
      cookie,
      body: { actionName: 'deploy', decision: 'approve' },
    });
    expect(decided.status).toBe(201);

    // The first POST is answered 500: the page says so (retrying, or already trying again).
    await expect.poll(endpoint.posts, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await expect(async () => {
      if (endpoint.letGo()) return;
      await page.reload();
      await expect(panel).toContainText('the endpoint answered 500', { timeout: 2_000 });
      await expect(panel.getByTestId('resume-status')).toHaveText(/^(Retrying|Delivering)$/, {
        timeout: 2_000,
      });
    }).toPass({ timeout: 30_000 });
    if (endpoint.letGo()) return false;

    // The next one is answered 200: delivered, on the second attempt.
    endpoint.release();
    await expect(async () => {
      await page.reload();
      await expect(panel.getByTestId('resume-status')).toHaveText('Delivered', {
        timeout: 2_000,
      });
    }).toPass({ timeout: 60_000 });
    await expect(panel).toContainText('The agent received the result (attempt 2 of');
    await expect(panel).toContainText('the endpoint answered 200');
    expect(endpoint.posts()).toBe(2);
    return true;
  } finally {
    endpoint.release();
    endpoint.server.close();
  }
}
