import { Interlock } from '@interlock/sdk';
import { expect, test } from './support/fixtures';
import {
  DESKTOP,
  expectHeadingClear,
  expectNoHorizontalOverflow,
  PHONE,
  TABLET,
} from './support/layout';
import { api, baseURL, unique } from './support/service';

const VIEWPORTS = [PHONE, TABLET, DESKTOP];

test.describe('Layout with stress content', () => {
  test('long unbroken titles, a 10,000-character description and 27 KB of args: no sideways scrolling, the decision buttons stay near, at phone, tablet and desktop sizes', async ({
    page,
    owner,
  }) => {
    test.setTimeout(180_000);
    const { body } = await api<{ key: string }>('POST', '/api/api-keys', {
      cookie: owner.cookie,
      body: { name: 'layout-agent', expiry: 'never' },
    });
    const agent = new Interlock({ apiKey: body.key, baseURL });
    const word = unique('wide').replace('-', '');
    const url = `https://example.com/${'a'.repeat(150)}/${word}`;
    const stress = await agent.interrupts.create({
      title: `${word} ${'🚀'.repeat(60)}${'x'.repeat(120)}`,
      description: `${url} ${'Z'.repeat(10_000 - url.length - 1)}`,
      actionRequests: [
        {
          name: `deploy_${'y'.repeat(80)}`,
          description: 'p'.repeat(3_000),
          args: {
            path: `/var/${'q'.repeat(400)}`,
            rows: Array.from({ length: 400 }, (_, i) => ({
              id: i,
              note: `row ${i} ${'n'.repeat(40)}`,
            })),
          },
        },
      ],
    });
    expect(JSON.stringify(stress.actionRequests[0].args).length).toBeGreaterThan(27_000);

    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(`/inbox?q=${word}`);
      await expect(page.getByRole('link', { name: new RegExp(word) })).toBeVisible();
      await expectNoHorizontalOverflow(page, `the inbox at ${viewport.name} size`);
      await expectHeadingClear(page, `the inbox at ${viewport.name} size`);

      await page.goto(`/interrupts/${stress.id}`);
      const approve = page.getByRole('button', { name: /^Approve deploy_/ });
      await expect(approve).toBeVisible();
      await expectNoHorizontalOverflow(page, `the interrupt page at ${viewport.name} size`);
      await expectHeadingClear(page, `the interrupt page at ${viewport.name} size`);
      // The buttons are within a few screens of the top, not tens of thousands of pixels down.
      const top = await approve.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
      expect(top, `the Approve button at ${viewport.name} size`).toBeLessThan(viewport.height * 3);
      // Everything is still there to read.
      await page.getByRole('button', { name: 'Show the whole description' }).click();
      await expect(page.getByText(url)).toBeVisible();
      await expectNoHorizontalOverflow(page, `the whole description at ${viewport.name} size`);
    }
  });
});
