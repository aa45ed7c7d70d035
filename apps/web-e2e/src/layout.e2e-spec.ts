import { Interlock } from '@interlock/sdk';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { api, baseURL, unique } from './support/service';

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 768, height: 1024 },
  { name: 'desktop', width: 1440, height: 900 },
];

/** Nothing is wider than the window: no sideways scrolling of the page. */
async function expectNoHorizontalOverflow(page: Page, what: string): Promise<void> {
  const { scrollWidth, innerWidth, culprits } = await page.evaluate(() => {
    // The innermost elements that reach past the window's right edge, to name in a failure.
    const limit = window.innerWidth - window.scrollX + 1;
    const wide = [...document.querySelectorAll<HTMLElement>('body *')].filter((el) => el.getBoundingClientRect().right > limit);
    // Text can overflow a box that is itself narrow enough.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const parent = node.parentElement;
      // Text cut off with an ellipsis (or clipped) does not widen the page.
      if (parent === null || getComputedStyle(parent).overflowX !== 'visible') continue;
      if (range.getBoundingClientRect().right > limit) wide.push(parent);
    }
    const innermost = wide.filter((el) => !wide.some((other) => other !== el && el.contains(other)));
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      culprits: innermost.slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${el.className.toString().slice(0, 60)} "${(el.textContent ?? '').slice(0, 40)}"`),
    };
  });
  expect(scrollWidth, `${what}: page width ${scrollWidth} px in a ${innerWidth} px window; too wide: ${culprits.join(' | ')}`).toBeLessThanOrEqual(innerWidth);
}

/** The page's heading is not under the fixed header. */
async function expectHeadingClear(page: Page, what: string): Promise<void> {
  const header = await page.getByRole('banner').boundingBox();
  const heading = await page.getByRole('heading', { level: 1 }).boundingBox();
  expect(header && heading && heading.y >= header.y + header.height, `${what}: the heading starts below the header`).toBe(true);
}

test.describe('Layout with stress content', () => {
  test('long unbroken titles, a 10,000-character description and 27 KB of args: no sideways scrolling, the decision buttons stay near, at phone, tablet and desktop sizes', async ({
    page,
    owner,
  }) => {
    test.setTimeout(180_000);
    const { body } = await api<{ key: string }>('POST', '/api/api-keys', { cookie: owner.cookie, body: { name: 'layout-agent', expiry: 'never' } });
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
          args: { path: `/var/${'q'.repeat(400)}`, rows: Array.from({ length: 400 }, (_, i) => ({ id: i, note: `row ${i} ${'n'.repeat(40)}` })) },
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
