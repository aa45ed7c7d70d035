/** Server-Sent Events framing (WHATWG HTML §9.2). Data is one line of JSON, never raw newlines. */
export function sseEvent(event: string, data: unknown, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: ignored by clients, keeps proxies and load balancers from timing out. */
export const SSE_HEARTBEAT = ': heartbeat\n\n';

/** `Last-Event-ID` as a message number; absent or empty means from the start. */
export function parseLastEventId(value: string | undefined): number | undefined | 'invalid' {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  return /^\d{1,10}$/.test(trimmed) ? Number(trimmed) : 'invalid';
}
