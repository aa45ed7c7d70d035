import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { addMember, signUpOwner, storageStateFor, type Member } from './service';

const SCREENSHOTS = join(__dirname, '..', '..', '..', '..', 'tmp', 'web-e2e', 'screenshots');

interface WorkerFixtures {
  /** One organisation per worker; its Owner signs up once and every test's `page` is signed in as them. */
  owner: Member;
}

/** How the context of `pageFor` is drawn: a phone's size, and touch (taps) where a phone has it. */
export interface PageOptions {
  viewport?: { width: number; height: number };
  /** Touch events, `locator.tap()` and the touch media features (`pointer: coarse`). */
  hasTouch?: boolean;
}

interface TestFixtures {
  /** Opens a page signed in as another member, in a browser context of its own. */
  pageFor: (member: Member, options?: PageOptions) => Promise<Page>;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  owner: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      await use(await signUpOwner(`owner-w${workerInfo.workerIndex}`));
    },
    { scope: 'worker' },
  ],
  storageState: async ({ owner }, use) => {
    await use(storageStateFor(owner));
  },
  pageFor: async ({ browser }, use) => {
    const contexts: Awaited<ReturnType<Browser['newContext']>>[] = [];
    await use(async (member, { viewport, hasTouch }: PageOptions = {}) => {
      const context = await browser.newContext({
        storageState: storageStateFor(member),
        ...(viewport && { viewport }),
        ...(hasTouch !== undefined && { hasTouch }),
      });
      contexts.push(context);
      return context.newPage();
    });
    await Promise.all(contexts.map((c) => c.close()));
  },
});

export { addMember, expect, signUpOwner };

/**
 * axe-core on what the page shows now: no serious or critical violation of WCAG 2.x A/AA.
 *
 * axe.run in the page itself (AxeBuilder's legacy mode), violations only: the default runs axe
 * in each frame and joins the results in a blank page of its own, axe injected twice and a new
 * page per scan, 2.2 times the time for the same findings (both ways found the same violations,
 * rule and element, on four pages with six planted; suite, session 13). A page with frames is
 * refused: AxeBuilder gives each frame 1 s to take axe and otherwise leaves it out of the scan
 * without a word, which happened under load (session 15); no page of the dashboard has one.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  if (page.frames().length !== 1)
    throw new Error(
      `expectAccessible scans pages without frames; ${what} has ${page.frames().length - 1}`,
    );
  // A transition under way (a notification fading in or out) shows colours half-drawn, which axe
  // measures as they are (run L: a toast that appeared after the test saw none failed
  // color-contrast). Finite animations end first (endless ones, a loader, are left running), and
  // a scan that finds a violation is taken again: one drawn half-way is gone by then, a real one
  // is found every time.
  const scan = async (): Promise<string[]> => {
    await page.evaluate(() =>
      Promise.race([
        Promise.all(
          document
            .getAnimations()
            .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
            .map((a) => a.finished.catch(() => undefined)),
        ),
        new Promise((resolve) => setTimeout(resolve, 5_000)),
      ]),
    );
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .options({ resultTypes: ['violations'] })
      .setLegacyMode()
      .analyze();
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.impact}: ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      );
  };
  // Up to three looks, a second apart, while one finds a violation (run Q: a toast half-drawn at
  // both of two looks taken back to back).
  let serious = await scan();
  for (let look = 1; look < 3 && serious.length > 0; look++) {
    await page.waitForTimeout(1_000);
    serious = await scan();
  }
  expect(serious, `accessibility of ${what}`).toEqual([]);
}

/** Saves a screenshot of the page for the README and for review (tmp/web-e2e/screenshots). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}
