import { expect, type Locator, type Page } from '@playwright/test';

/** The sizes issue 31 names: a phone, a tablet and a laptop. */
export const PHONE = { name: 'phone', width: 390, height: 844 } as const;
export const TABLET = { name: 'tablet', width: 768, height: 1024 } as const;
export const DESKTOP = { name: 'desktop', width: 1440, height: 900 } as const;

/** Nothing is wider than the window: no sideways scrolling of the page. */
export async function expectNoHorizontalOverflow(
  page: Page,
  what: string,
  { soft = false } = {},
): Promise<void> {
  const check = soft ? expect.soft : expect;
  const { scrollWidth, innerWidth, culprits } = await page.evaluate(() => {
    // The innermost elements that reach past the window's right edge, to name in a failure.
    const limit = window.innerWidth - window.scrollX + 1;
    const wide = [...document.querySelectorAll<HTMLElement>('body *')].filter(
      (el) => el.getBoundingClientRect().right > limit,
    );
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
    const innermost = wide.filter(
      (el) => !wide.some((other) => other !== el && el.contains(other)),
    );
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      culprits: innermost
        .slice(0, 5)
        .map(
          (el) =>
            `${el.tagName.toLowerCase()}.${el.className.toString().slice(0, 60)} "${(el.textContent ?? '').slice(0, 40)}"`,
        ),
    };
  });
  check(
    scrollWidth,
    `${what}: page width ${scrollWidth} px in a ${innerWidth} px window; too wide: ${culprits.join(' | ')}`,
  ).toBeLessThanOrEqual(innerWidth);
}

/**
 * Nothing on the page scrolls sideways inside itself either (a table in a scroll box passes the
 * page check but still has to be dragged sideways on a phone). Code and JSON blocks wrap, so
 * they are not exempt.
 */
export async function expectNoSidewaysScrolling(
  page: Page,
  what: string,
  { soft = false } = {},
): Promise<void> {
  const check = soft ? expect.soft : expect;
  const boxes = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => {
        const style = getComputedStyle(el);
        if (style.overflowX !== 'auto' && style.overflowX !== 'scroll') return false;
        // Hidden boxes (a closed menu) and a scrollbar's own rounding do not count.
        return el.getClientRects().length > 0 && el.scrollWidth > el.clientWidth + 1;
      })
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${el.className.toString().slice(0, 60)} (${el.scrollWidth} px in ${el.clientWidth} px) "${(el.textContent ?? '').slice(0, 40)}"`,
      ),
  );
  check(boxes, `${what}: boxes that scroll sideways`).toEqual([]);
}

/** (Each check takes `soft: true` to report every page's problem in one run rather than the first.) */

/** The page's heading is not under the fixed header. */
export async function expectHeadingClear(
  page: Page,
  what: string,
  { soft = false } = {},
): Promise<void> {
  const check = soft ? expect.soft : expect;
  const header = await page.getByRole('banner').boundingBox();
  const heading = await page.getByRole('heading', { level: 1 }).boundingBox();
  check(
    header && heading && heading.y >= header.y + header.height,
    `${what}: the heading starts below the header`,
  ).toBe(true);
}

/**
 * No select shows its value cut off: the text of every visible select (a combobox input, whose
 * value is one of its choices' labels) fits its box, for values up to 40 characters. Settings → Notifications read
 * "Default (Immediatel" when the column was narrower than its longest choice.
 */
export async function expectNoCutOffSelects(
  page: Page,
  what: string,
  { soft = false } = {},
): Promise<void> {
  const check = soft ? expect.soft : expect;
  const cut = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLInputElement>('input[aria-haspopup="listbox"]')]
      // The dashboard's own choices ("Default (Immediately)"); a longer value is a name someone
      // typed (the stress content's 50-character team), which a one-line input clips by design.
      .filter(
        (input) =>
          input.getClientRects().length > 0 && input.value !== '' && input.value.length <= 40,
      )
      // An input's scrollWidth is its text's width when that is wider than the box.
      .filter((input) => input.scrollWidth > input.clientWidth + 1)
      .map(
        (input) =>
          `${input.getAttribute('aria-label') ?? input.id} "${input.value}" (${input.scrollWidth} px in ${input.clientWidth} px)`,
      ),
  );
  check(cut, `${what}: selects whose value is cut off`).toEqual([]);
}

/** Big enough for a thumb: WCAG 2.5.5's 44 px is the aim, Mantine's default 36 px the floor. */
export async function expectThumbSized(target: Locator, what: string): Promise<void> {
  const box = await target.boundingBox();
  if (box === null) throw new Error(`${what} is not drawn`);
  expect(box.height, `${what}: height`).toBeGreaterThanOrEqual(36);
  expect(box.width, `${what}: width`).toBeGreaterThanOrEqual(36);
}

/** The element is wholly on screen: nothing to scroll to reach it. */
export async function expectWhollyOnScreen(target: Locator, what: string): Promise<void> {
  await expect(target, what).toBeInViewport({ ratio: 1 });
}
