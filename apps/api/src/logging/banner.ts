import type { AppConfig } from '../config/app-config';

/** The database as a person may see it: host, port and name, never the credentials. */
export function describeDatabase(
  databaseUrl: string | undefined,
  dataDir: string,
): { database: string; data: string } {
  if (databaseUrl === undefined) {
    return {
      database: 'embedded Postgres (for one process; set DATABASE_URL for your own Postgres)',
      data: dataDir,
    };
  }
  try {
    const url = new URL(databaseUrl);
    const name = url.pathname.replace(/^\//, '') || '(default database)';
    return {
      database: `Postgres at ${url.hostname}${url.port ? `:${url.port}` : ''}, database ${name}`,
      data: 'in that database (back it up with pg_dump)',
    };
  } catch {
    return { database: 'external Postgres (DATABASE_URL)', data: 'in that database' };
  }
}

/**
 * What a person starting the service on a terminal needs, once it listens: where to open it,
 * which database it uses, where the data lives and how to stop it.
 */
export function startBanner(
  config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>,
  port: number,
  metricsPort?: number,
): string {
  const { database, data } = describeDatabase(config.databaseUrl, config.dataDir);
  const lines = [
    '',
    '  Interlock is running',
    '',
    `  Open       http://localhost:${port}   (dashboard; API docs at /docs)`,
    `  Database   ${database}`,
    `  Data       ${data}`,
    ...(metricsPort === undefined ? [] : [`  Metrics    http://localhost:${metricsPort}/metrics`]),
    '  Stop       Ctrl+C (finishes the requests in flight, then exits)',
    '',
  ];
  return `${lines.join('\n')}\n`;
}
