/** The stdio server's configuration, from its environment (the MCP client's config sets it). */
export interface StdioConfig {
  apiKey: string;
  /** The Interlock service's origin. */
  baseURL: string;
  /** Where people open the dashboard: links are `<dashboardUrl>/interrupts/<id>`. */
  dashboardUrl: string;
  /** How long `permission_prompt` waits for a person (INTERLOCK_PERMISSION_WAIT_SECONDS); the server's default when absent. */
  permissionWaitSeconds?: number;
}

export class StdioConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`interlock-mcp cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'StdioConfigError';
  }
}

export const DEFAULT_BASE_URL = 'http://localhost:3000';

/**
 * INTERLOCK_API_KEY (required), INTERLOCK_BASE_URL (default http://localhost:3000),
 * INTERLOCK_DASHBOARD_URL (default: the base URL, which serves the dashboard at `/`) and
 * INTERLOCK_PERMISSION_WAIT_SECONDS (0–86400; default 45). Every problem is reported at once.
 */
export function readStdioConfig(env: Readonly<Record<string, string | undefined>>): StdioConfig {
  const problems: string[] = [];
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const url = (name: string, raw: string): string => {
    try {
      const parsed = new URL(raw);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
      return raw.replace(/\/+$/, '');
    } catch {
      problems.push(
        `${name} must be an http(s) URL such as https://interlock.example.com (got "${raw}")`,
      );
      return raw;
    }
  };
  const apiKey = read('INTERLOCK_API_KEY');
  if (apiKey === undefined) {
    problems.push(
      "INTERLOCK_API_KEY is not set: create a key in the Interlock dashboard and put it in the MCP server's env",
    );
  }
  const baseURL = url('INTERLOCK_BASE_URL', read('INTERLOCK_BASE_URL') ?? DEFAULT_BASE_URL);
  const dashboardRaw = read('INTERLOCK_DASHBOARD_URL');
  const dashboardUrl =
    dashboardRaw === undefined ? baseURL : url('INTERLOCK_DASHBOARD_URL', dashboardRaw);
  const waitRaw = read('INTERLOCK_PERMISSION_WAIT_SECONDS');
  const permissionWaitSeconds = waitRaw === undefined ? undefined : Number(waitRaw);
  if (
    permissionWaitSeconds !== undefined &&
    !(
      Number.isInteger(permissionWaitSeconds) &&
      permissionWaitSeconds >= 0 &&
      permissionWaitSeconds <= 86_400
    )
  ) {
    problems.push(
      `INTERLOCK_PERMISSION_WAIT_SECONDS must be a whole number of seconds from 0 to 86400 (got "${waitRaw}")`,
    );
  }
  if (problems.length > 0) throw new StdioConfigError(problems);
  return {
    apiKey: apiKey as string,
    baseURL,
    dashboardUrl,
    ...(permissionWaitSeconds === undefined ? {} : { permissionWaitSeconds }),
  };
}
