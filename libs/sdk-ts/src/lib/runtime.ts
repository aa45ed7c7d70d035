// What the SDK needs to know about the JavaScript runtime it runs in. Node, Deno, Bun and edge
// workers are all "server-side"; only a page with a DOM is a browser.

interface MaybeProcess {
  process?: { env?: Record<string, string | undefined> };
}
interface MaybeWindow {
  window?: { document?: unknown };
  navigator?: unknown;
}
interface MaybeCrypto {
  crypto?: { randomUUID?: () => string };
}

/**
 * Reads an environment variable where there is one (Node, Bun, Deno's Node shim). Read through
 * `globalThis` so that runtimes without `process` get `undefined` rather than a ReferenceError.
 */
export function readEnv(name: string): string | undefined {
  const value = (globalThis as MaybeProcess).process?.env?.[name];
  return value === undefined ? undefined : value.trim() || undefined;
}

/** True in a web page (a `window` with a `document`); false in Node, Deno, Bun and workers. */
export function isBrowser(): boolean {
  const g = globalThis as MaybeWindow;
  return (
    typeof g.window !== 'undefined' &&
    typeof g.window.document !== 'undefined' &&
    typeof g.navigator !== 'undefined'
  );
}

/** A v4 UUID: the Web Crypto one when present (Node ≥ 19, browsers, workers), else a fallback. */
export function uuid4(): string {
  const native = (globalThis as MaybeCrypto).crypto?.randomUUID;
  if (typeof native === 'function') return native.call((globalThis as MaybeCrypto).crypto);
  // Node 18 without the global: an idempotency key needs uniqueness, not secrecy.
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => {
    const r = (Math.random() * 16) | 0;
    return (c === 'x' ? r : (r & 0x3) | 0x8).toString(16);
  });
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface MaybeImmediate {
  setImmediate?: (callback: () => void) => unknown;
}

/**
 * Resolves on the event loop's next turn (after the I/O callbacks already due). Node's `fetch`
 * (undici) gives a connection back to its pool only on the turn after its response ended: a
 * request sent before that finds the connection still busy and, when every other one is too
 * (held waits), opens a new one, while the old one idles until the client closes it (issue 37 §6:
 * at 1,000 waiting agents most re-asks came on a new connection).
 */
export function nextTurn(): Promise<void> {
  const immediate = (globalThis as MaybeImmediate).setImmediate;
  return new Promise((resolve) => {
    if (typeof immediate === 'function') immediate(resolve);
    else setTimeout(resolve, 0);
  });
}
