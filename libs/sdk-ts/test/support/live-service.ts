// What tools/scripts/with-service.mjs prepared: a live service on real Postgres, keys of a Pro and
// a Free organisation, an expired key, and the Pro owner's session cookie. Plus raw HTTP helpers,
// so that tests can compare the SDK with what the service itself answers.

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(
      `${name} is not set: run the SDK integration tests through tools/scripts/with-service.mjs`,
    );
  }
  return value;
}

export const live = {
  baseURL: required('INTERLOCK_BASE_URL'),
  apiKey: required('INTERLOCK_API_KEY'),
  freeApiKey: required('INTERLOCK_FREE_API_KEY'),
  expiredApiKey: required('INTERLOCK_EXPIRED_API_KEY'),
  memberCookie: required('INTERLOCK_TEST_MEMBER_COOKIE'),
};

export interface RawResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/** One request without the SDK. */
export async function raw(
  method: string,
  path: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<RawResponse> {
  const send = () =>
    fetch(`${live.baseURL}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  // Once more when the connection broke before an answer: a kept-alive socket the service closed
  // as it was reused ("other side closed"), which a loaded machine makes likelier.
  const response = await send().catch((error: unknown) => {
    if (error instanceof TypeError) return send();
    throw error;
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : JSON.parse(text),
  };
}

/** The rest of a decision: `editedArgs` and `editedName` with edit, `message` with reject or respond. */
export interface DecisionExtras {
  editedArgs?: Record<string, unknown>;
  editedName?: string;
  message?: string;
  /** Typed input: with respond on an action that has a responseSchema. */
  response?: Record<string, unknown>;
}

/** A member decides one action of an interrupt (a human route: the session cookie, no key). */
export async function decide(
  interruptId: string,
  actionName: string,
  decision = 'approve',
  extras: DecisionExtras = {},
): Promise<void> {
  const response = await raw('POST', `/api/interrupts/${interruptId}/decisions`, {
    headers: { cookie: live.memberCookie },
    body: { actionName, decision, ...extras },
  });
  if (response.status !== 201 && response.status !== 200) {
    throw new Error(
      `deciding ${actionName} answered ${response.status}: ${JSON.stringify(response.body)}`,
    );
  }
}

/** A new API key of the Pro organisation, created by its owner (a human route: the cookie). */
export async function createKey(name: string): Promise<{ id: string; key: string }> {
  const response = await raw('POST', '/api/api-keys', {
    headers: { cookie: live.memberCookie },
    body: { name, expiry: 'never' },
  });
  if (response.status !== 201)
    throw new Error(`creating a key answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as { id: string; key: string };
}

/** Revokes a key created with `createKey`. */
export async function revokeKey(id: string): Promise<void> {
  const response = await raw('DELETE', `/api/api-keys/${id}`, {
    headers: { cookie: live.memberCookie },
  });
  if (response.status !== 204) throw new Error(`revoking a key answered ${response.status}`);
}

/** A tag unique to this run, to find what a test wrote. */
export function runTag(prefix: string): string {
  return `${prefix}${Math.random().toString(36).slice(2, 10)}`;
}

/** Runs `fn` over `items`, `width` at a time. */
export async function inBatches<T>(
  items: T[],
  width: number,
  fn: (item: T) => Promise<unknown>,
): Promise<void> {
  for (let i = 0; i < items.length; i += width) {
    await Promise.all(items.slice(i, i + width).map(fn));
  }
}

interface OpenInterrupt {
  id: string;
  title: string;
  actionRequests: {
    name: string;
    args: Record<string, unknown>;
    description: string | null;
    allowedDecisions: string[];
  }[];
  metadata: Record<string, unknown> | null;
}

/**
 * Plays the human: waits until `count` interrupts with this externalId are open, then decides every
 * action of each as `choose` says (`choose` sees the action and its interrupt). Returns the interrupts.
 */
export async function decideWhenOpen(
  externalId: string,
  choose: (
    action: OpenInterrupt['actionRequests'][number],
    interrupt: OpenInterrupt,
  ) => [string, DecisionExtras?],
  count = 1,
): Promise<OpenInterrupt[]> {
  for (let i = 0; i < 600; i++) {
    const page = await raw(
      'GET',
      `/api/interrupts?status=open&externalId=${encodeURIComponent(externalId)}`,
      {
        headers: { 'x-api-key': live.apiKey },
      },
    );
    const found = (page.body as { interrupts: OpenInterrupt[] }).interrupts;
    if (found.length >= count) {
      for (const interrupt of found) {
        for (const action of interrupt.actionRequests) {
          const [decision, extras] = choose(action, interrupt);
          await decide(interrupt.id, action.name, decision, extras);
        }
      }
      return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`fewer than ${count} open interrupts with externalId ${externalId} appeared`);
}
