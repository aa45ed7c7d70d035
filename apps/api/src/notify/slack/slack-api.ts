import type * as SlackWebApi from '@slack/web-api';
import type { Logger } from 'pino';
import { onFirstUse } from '../../loading/on-first-use.util';

type LogLevel = SlackWebApi.LogLevel;
type SlackLogger = SlackWebApi.Logger;

/** The client, loaded by the first call to Slack (issue 28: a process with no Slack connection never holds it). */
const slackWebApi = onFirstUse<typeof SlackWebApi>('@slack/web-api');
/** `LogLevel.WARN`, without loading the package for its enum. */
const WARN = 'warn' as LogLevel;

/** What the service asks of Slack's Web API, through the official client (`@slack/web-api`). */
export interface SlackWorkspace {
  teamId: string;
  teamName: string;
  botUserId: string;
}

/**
 * Makes `@slack/web-api` clients for a bot token, pointed at `SLACK_API_URL` (Slack's Web API,
 * or in tests a local server standing in for it). The client's own retries are off: a failed
 * post or edit is retried by the Slack delivery worker on NOTIFICATION_RETRY_SCHEDULE, and a
 * rate-limited call fails at once (rejectRateLimitedCalls) so it waits there, not in memory.
 * The client logs through the service's logger at warning and above, without its arguments
 * (they hold the token in the Authorization header only, never in a message).
 */
/** How long saving a connection waits for Slack's `auth.test` (SPEC §8h): a person is waiting. */
export const CHECK_TIMEOUT_MS = 5_000;

export class SlackApi {
  private readonly logger: SlackLogger;

  constructor(
    private readonly apiUrl: string,
    logger: Logger,
    private readonly timeoutMs = 10_000,
  ) {
    const child = logger.child({ component: 'slack' });
    let level = WARN;
    this.logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: (...msg: unknown[]) => child.warn(msg.map(String).join(' ')),
      error: (...msg: unknown[]) => child.error(msg.map(String).join(' ')),
      setLevel: (l: LogLevel) => {
        level = l;
      },
      getLevel: () => level,
      setName: () => undefined,
    };
  }

  client(botToken: string, timeoutMs = this.timeoutMs): SlackWebApi.WebClient {
    return new (slackWebApi().WebClient)(botToken, {
      slackApiUrl: this.apiUrl,
      logger: this.logger,
      logLevel: WARN,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      timeout: timeoutMs,
      allowAbsoluteUrls: false,
    });
  }

  /**
   * The workspace and bot a token belongs to (`auth.test`); throws when Slack refuses the token
   * or does not answer within CHECK_TIMEOUT_MS (a person waits for it in the Settings form).
   */
  async workspace(botToken: string): Promise<SlackWorkspace> {
    const answer = await this.client(botToken, CHECK_TIMEOUT_MS).auth.test();
    if (typeof answer.team_id !== 'string' || typeof answer.user_id !== 'string')
      throw new Error('auth.test did not name a workspace and a bot user');
    return {
      teamId: answer.team_id,
      teamName: typeof answer.team === 'string' ? answer.team : answer.team_id,
      botUserId: answer.user_id,
    };
  }
}

/** A short, secret-free sentence for a failed Slack call (kept as a message's `lastError`). */
export function slackErrorText(error: unknown): string {
  const e = error as {
    code?: string;
    data?: { error?: string };
    retryAfter?: number;
    message?: string;
  };
  if (e.data?.error !== undefined) return `Slack answered ${e.data.error}.`;
  if (e.code === 'slack_webapi_rate_limited_error')
    return `Slack rate-limited the call (retry after ${e.retryAfter ?? '?'} s).`;
  if (e.code === 'slack_webapi_request_error') return 'Slack could not be reached.';
  if (e.code === 'slack_webapi_http_error')
    return `Slack answered HTTP ${(error as { statusCode?: number }).statusCode ?? '?'}.`;
  return (e.message ?? String(error)).slice(0, 300);
}
