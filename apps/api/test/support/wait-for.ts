/**
 * Polls `check` every 100 ms until it holds, or throws `timed out waiting for <what>` after
 * `timeoutMs` (generous: the machine running the tests may be loaded). For background work —
 * a job the runner picks up — that a test waits on by its effect, never by sleeping.
 */
export async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}
