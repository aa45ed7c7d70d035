/**
 * For unit specs on real timers: waits until `check()` holds, polling every 5 ms, and throws past
 * `ms`. What a background round or a heartbeat does is awaited this way, never for a fixed time: on
 * a loaded machine a 40 ms heartbeat can come late, and a fixed wait read that as a missing one.
 */
export async function eventually(check: () => boolean, ms = 2_000): Promise<void> {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
