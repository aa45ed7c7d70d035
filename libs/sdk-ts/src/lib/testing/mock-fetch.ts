// Test support: a scripted `fetch` that records what the client sent.
import type { Fetch } from '../request-options';

export interface RecordedCall {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  at: number;
}

type Handler =
  Response | Error | ((call: RecordedCall, init: RequestInit) => Response | Promise<Response>);

export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The SPEC §4 error body, as the service sends it. */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return jsonResponse(
    status,
    { statusCode: status, error: 'Error', code, message, requestId: `req-${status}-${code}` },
    { 'x-request-id': `req-${status}-${code}`, ...headers },
  );
}

/** Answers each call with the next handler; the last one repeats. */
export function mockFetch(...handlers: Handler[]): { fetch: Fetch; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const fetch: Fetch = async (url, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const call: RecordedCall = {
      url: new URL(url),
      method: init.method ?? 'GET',
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      at: Date.now(),
    };
    calls.push(call);
    const handler = handlers[Math.min(calls.length - 1, handlers.length - 1)];
    if (handler instanceof Error) throw handler;
    if (typeof handler === 'function') return handler(call, init);
    return handler.clone();
  };
  return { fetch, calls };
}

/** A fetch that never answers, only honouring its abort signal (as real fetch does). */
export function hangingResponse(_call: RecordedCall, init: RequestInit): Promise<Response> {
  return new Promise((_resolve, reject) => {
    init.signal?.addEventListener('abort', () =>
      reject(new DOMException('This operation was aborted', 'AbortError')),
    );
  });
}
