import { createHmac } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** One Web API call as Slack would have received it. */
export interface SlackCall {
  method: string;
  /** The bearer token it was made with. */
  token: string;
  /** The arguments (form fields; JSON-valued ones such as `blocks` parsed). */
  args: Record<string, unknown>;
}

export interface SlackUser {
  id: string;
  email?: string;
  emailConfirmed?: boolean;
}

export type SlackBlock = {
  type: string;
  elements?: { action_id?: string; value?: string; text?: { text: string } }[];
  text?: { text: string };
};

/** The texts and buttons of a message as Slack shows it. */
export function shown(args: Record<string, unknown>) {
  const blocks = args.blocks as SlackBlock[];
  const texts = blocks.flatMap((b) => [
    ...(b.text === undefined ? [] : [b.text.text]),
    ...(b.type === 'context'
      ? (b.elements ?? []).map((e) => (e as unknown as { text: string }).text)
      : []),
  ]);
  const buttons = blocks
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements ?? [])
    .filter((e) => e.value !== undefined)
    .map((e) => ({ label: e.text?.text, value: e.value as string, actionId: e.action_id }));
  return { text: args.text as string, texts, buttons };
}

/**
 * A real HTTP server on loopback standing in for Slack's Web API (Slack itself cannot be
 * reached from the test machines): it answers `auth.test`, `chat.postMessage`, `chat.update`,
 * `chat.postEphemeral` and `users.info` as Slack documents them, for the bot tokens and users
 * the test gives it, records every call, and keeps each channel's messages as the last post or
 * update left them. It also plays Slack's side of interactivity: `sign` signs a request body
 * exactly as Slack does (v0, HMAC-SHA-256 of `v0:<timestamp>:<body>` with the signing secret).
 */
export class SlackStandIn {
  readonly calls: SlackCall[] = [];
  /** channel → ts → the message's current arguments. */
  readonly channels = new Map<string, Map<string, Record<string, unknown>>>();
  readonly users = new Map<string, SlackUser>();
  /** Methods made to fail with this Slack error code (e.g. `ratelimited`). */
  readonly failing = new Map<string, string>();
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly listeners = new Set<() => void>();
  private nextTs = 1_764_000_000_000_100;
  port = 0;

  constructor(
    readonly workspace: { teamId: string; teamName: string; botUserId: string; token: string },
  ) {}

  /** The base URL to give the service as SLACK_API_URL. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/api/`;
  }

  async start(): Promise<void> {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.answer(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** Resolves once `condition` holds (checked after every call), or fails after `timeoutMs`. */
  until(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`Slack stand-in: condition not met in ${timeoutMs} ms`));
      }, timeoutMs);
      const check = () => {
        if (!condition()) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve();
      };
      this.listeners.add(check);
    });
  }

  callsOf(method: string): SlackCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** The one message in `channel` (its current arguments), if exactly one was posted. */
  messagesIn(channel: string): { ts: string; args: Record<string, unknown> }[] {
    return [...(this.channels.get(channel) ?? new Map<string, Record<string, unknown>>())].map(
      ([ts, args]) => ({ ts, args }),
    );
  }

  /** Signs `body` as Slack signs a request to the app's Request URL. */
  static sign(signingSecret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) {
    const signature = `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
    return {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': signature,
    };
  }

  private answer(req: IncomingMessage, body: string, res: ServerResponse): void {
    const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0];
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const args: Record<string, unknown> = {};
    const json = (req.headers['content-type'] ?? '').startsWith('application/json');
    if (json) Object.assign(args, JSON.parse(body || '{}'));
    else
      for (const [k, v] of new URLSearchParams(body)) {
        args[k] = k === 'blocks' || k === 'attachments' ? JSON.parse(v) : v;
      }
    this.calls.push({ method, token, args });
    const reply = (payload: Record<string, unknown>) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(payload));
      for (const listener of [...this.listeners]) listener();
    };
    if (token !== this.workspace.token) return reply({ ok: false, error: 'invalid_auth' });
    const failure = this.failing.get(method);
    if (failure !== undefined) return reply({ ok: false, error: failure });
    switch (method) {
      case 'auth.test':
        return reply({
          ok: true,
          url: 'https://example.slack.com/',
          team: this.workspace.teamName,
          team_id: this.workspace.teamId,
          user: 'interlock',
          user_id: this.workspace.botUserId,
          bot_id: 'B0BOT',
        });
      case 'chat.postMessage': {
        const channel = String(args.channel);
        const ts = `${String(this.nextTs++).slice(0, 10)}.${String(this.nextTs).slice(10)}`;
        const messages = this.channels.get(channel) ?? new Map<string, Record<string, unknown>>();
        messages.set(ts, args);
        this.channels.set(channel, messages);
        return reply({ ok: true, channel, ts, message: { text: args.text, ts } });
      }
      case 'chat.update': {
        const messages = this.channels.get(String(args.channel));
        const ts = String(args.ts);
        if (messages === undefined || !messages.has(ts))
          return reply({ ok: false, error: 'message_not_found' });
        messages.set(ts, args);
        return reply({ ok: true, channel: args.channel, ts, text: args.text });
      }
      case 'chat.postEphemeral':
        return reply({ ok: true, message_ts: `${Math.floor(Date.now() / 1000)}.000001` });
      case 'users.info': {
        const user = this.users.get(String(args.user));
        if (user === undefined) return reply({ ok: false, error: 'user_not_found' });
        return reply({
          ok: true,
          user: {
            id: user.id,
            team_id: this.workspace.teamId,
            name: user.id.toLowerCase(),
            deleted: false,
            is_email_confirmed: user.emailConfirmed ?? true,
            profile: user.email === undefined ? {} : { email: user.email },
          },
        });
      }
      default:
        return reply({ ok: false, error: 'unknown_method' });
    }
  }
}
