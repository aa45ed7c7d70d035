/**
 * jsdom's getComputedStyle, answered once per element until the document changes.
 *
 * Testing Library's role queries ask it for every node of every candidate's accessible name and
 * for every ancestor (is it hidden?), Floating UI for every ancestor of an open dropdown, Mantine's
 * scroll areas as they render. jsdom rebuilds the whole answer at each call: it matches the
 * element against every rule of its default style sheet and the page's, and resolves each property
 * it implements, the inherited ones up through every ancestor. Profiled, that was nearly half of
 * the escalation settings spec, and on a loaded machine a test's time is its CPU many times over.
 *
 * jsdom keeps the matched declarations in a per-document cache that it drops whenever anything
 * attached changes (an attribute, the inline style, a node inserted, removed or its text changed,
 * a style sheet added or removed). The answers here are kept exactly as long as that cache: a new
 * cache object is a new document state, and every answer is asked again. So an answer is never
 * older than jsdom's own. Callers share the answer object, as nothing here writes to a computed
 * style (a browser refuses such writes).
 */
type StyleCacheHolder = { _styleCache: object | null };

const memoised = Symbol.for('interlock.test.computedStyleMemo');

export function memoiseComputedStyle(window: Window & typeof globalThis): void {
  const own = window as unknown as Record<symbol, boolean>;
  // setup.ts runs before each file of a worker, and the files share one window.
  if (own[memoised]) return;
  const document = window.document;
  // jsdom's wrapper objects hold their implementation under a symbol described "impl".
  const impl = Object.getOwnPropertySymbols(document).find((s) => s.description === 'impl');
  const state = impl && (document as unknown as Record<symbol, StyleCacheHolder>)[impl];
  if (!state || !('_styleCache' in state))
    throw new Error(
      "computed-style-memo: jsdom's document has no _styleCache (jsdom changed): update src/test/computed-style-memo.ts",
    );
  const compute = window.getComputedStyle.bind(window);
  let answers = new WeakMap<Element, CSSStyleDeclaration>();
  let answeredFor: object | null = null;
  window.getComputedStyle = (element: Element, pseudoElement?: string | null) => {
    // Pseudo-elements (jsdom answers them with a "not implemented") and non-elements (a TypeError)
    // go to jsdom as they are.
    if (pseudoElement || !(element instanceof window.Element))
      return compute(element, pseudoElement);
    if (state._styleCache === null || state._styleCache !== answeredFor) answers = new WeakMap();
    let style = answers.get(element);
    if (!style) {
      style = compute(element);
      answeredFor = state._styleCache;
      answers.set(element, style);
    }
    return style;
  };
  own[memoised] = true;
}
