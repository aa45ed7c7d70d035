import { ConflictError, Interlock } from '@interlock/sdk';
import { expect, expectAccessible, screenshot, test } from './support/fixtures';
import { api, baseURL, unique, type Member } from './support/service';
import { TcpProxy } from './support/tcp-proxy';

async function agentFor(owner: Member): Promise<Interlock> {
  const { body } = await api<{ key: string }>('POST', '/api/api-keys', {
    cookie: owner.cookie,
    body: { name: unique('live').slice(0, 20), expiry: 'never' },
  });
  return new Interlock({ apiKey: body.key, baseURL });
}

test.describe('Sessions → Live View', () => {
  test('flow 7: messages appended by the SDK stream in, follow the bottom, survive a dropped connection, and the end shows', async ({
    page,
    owner,
  }) => {
    const agent = await agentFor(owner);
    const session = await agent.sessions.start({ name: 'Nightly refund reconciliation' });
    // The browser reaches the service through a proxy the test can cut (the page only reads).
    const proxy = new TcpProxy(new URL(baseURL));
    await proxy.start();
    try {
      await page.goto(`${proxy.origin}/sessions/${session.id}`);
      await expect(
        page.getByRole('heading', { name: 'Nightly refund reconciliation' }),
      ).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
      await expect(page.getByText('No messages yet')).toBeVisible();

      const log = page.getByRole('log', { name: 'Session messages' });
      await agent.sessions.append(session.id, [
        { role: 'agent', content: 'Reading the refunds queue…' },
        { role: 'tool', content: '{"pending": 3}' },
      ]);
      await expect(log.getByText('Reading the refunds queue…')).toBeVisible();
      await expect(log.getByText('{"pending": 3}')).toBeVisible();

      // Many more: the view follows the newest one.
      await agent.sessions.append(
        session.id,
        Array.from({ length: 40 }, (_, i) => ({
          role: 'agent' as const,
          content: `Refund ${i + 1} checked`,
        })),
      );
      await expect(log.getByText('Refund 40 checked', { exact: true })).toBeInViewport();
      // The count follows what arrived (the session record sent when the stream opened said 0).
      await expect(page.getByText('42 of 42 messages received')).toBeVisible();

      // The connection drops; the agent goes on; back online, the stream resumes after the last
      // message it had (Last-Event-ID): nothing missing, nothing twice.
      proxy.cut();
      await expect(page.getByRole('status').filter({ hasText: 'reconnecting' })).toBeVisible();
      await agent.sessions.append(session.id, [
        { role: 'agent', content: 'Appended while you were away' },
      ]);
      proxy.restore();
      await expect(log.getByText('Appended while you were away')).toBeInViewport();
      await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
      await expect(log.locator('[data-seq]')).toHaveCount(43);
      await expect(log.getByText('Refund 1 checked', { exact: true })).toHaveCount(1);
      await expectAccessible(page, 'the Live View');
      await screenshot(page, 'live-view');

      await agent.sessions.end(session.id);
      await expect(page.getByText('The session has finished.')).toBeVisible();
      await expect(page.getByText('Ended', { exact: true })).toBeVisible();
    } finally {
      await proxy.stop();
    }
  });

  test('a member disconnects a session: the agent’s next append is refused', async ({
    page,
    owner,
  }) => {
    const agent = await agentFor(owner);
    const session = await agent.sessions.start({ name: 'Runaway crawler' });
    await agent.sessions.append(session.id, [{ role: 'agent', content: 'Crawling page 1 of ∞' }]);

    await page.goto(`/sessions/${session.id}`);
    await expect(
      page.getByRole('log', { name: 'Session messages' }).getByText('Crawling page 1 of ∞'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Disconnect' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disconnect this session?' });
    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Disconnected', { exact: true })).toBeVisible();
    await expect(page.getByText('The session has finished.')).toBeVisible();

    const refused = await agent.sessions
      .append(session.id, [{ role: 'agent', content: 'page 2' }])
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(refused).toBeInstanceOf(ConflictError);
  });

  test('messages render as sanitised Markdown: no raw HTML, links only http(s) with rel=noopener, nothing runs', async ({
    page,
    owner,
  }) => {
    const agent = await agentFor(owner);
    const session = await agent.sessions.start({ name: 'Markdown in messages' });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const remote: string[] = [];
    page.on('request', (request) => {
      const { hostname } = new URL(request.url());
      if (hostname !== 'localhost' && hostname !== '127.0.0.1') remote.push(request.url());
    });
    await page.goto(`/sessions/${session.id}`);
    await expect(page.getByText('No messages yet')).toBeVisible({ timeout: 60_000 });

    // Streamed in while the page is open, as an agent writes them.
    await agent.sessions.append(session.id, [
      {
        role: 'agent',
        content: [
          'Checked **14** refunds; see [the runbook](https://example.com/runbook).',
          '',
          '<script>window.__pwned = "script"</script>',
          '<img src="x" onerror="window.__pwned = \'img\'">',
          '',
          '[open me](javascript:window.__pwned=1) · [data](data:text/html,<b>x</b>) · [ftp](ftp://example.com/f)',
          '',
          '![pixel](https://tracker.example/pixel.png)',
        ].join('\n'),
      },
    ]);
    const log = page.getByRole('log', { name: 'Session messages' });
    const message = log.locator('[data-seq="1"]');
    await expect(message.locator('strong')).toHaveText('14');
    const runbook = message.getByRole('link', { name: 'the runbook' });
    await expect(runbook).toHaveAttribute('href', 'https://example.com/runbook');
    await expect(runbook).toHaveAttribute('rel', /\bnoopener\b/);
    // Raw HTML is the text it is; links to anything but http(s) are not links.
    await expect(message).toContainText('<script>window.__pwned = "script"</script>');
    for (const name of ['open me', 'data', 'ftp'])
      await expect(message.getByRole('link', { name })).toHaveCount(0);
    await expect(message.locator('script, img, iframe, [onerror]')).toHaveCount(0);
    expect(
      await message
        .locator('a')
        .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).protocol)),
    ).toEqual(['https:']);
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(remote, 'requests leaving the service (a remote image would load)').toEqual([]);
  });
});
