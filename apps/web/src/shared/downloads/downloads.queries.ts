import { useQuery } from '@tanstack/react-query';

/** One package the service serves at `/downloads/…` (its `GET /downloads` manifest). */
export interface DownloadablePackage {
  name: string;
  kind: 'npm' | 'python';
  version: string;
  file: string;
  path: string;
  sha256: string;
  size: number;
}

/**
 * The packages this server serves (not part of the API contract: `/downloads` is a file server,
 * like the dashboard's own files). Empty when none were built.
 */
export function useDownloads() {
  return useQuery({
    queryKey: ['downloads'],
    queryFn: async (): Promise<DownloadablePackage[]> => {
      const response = await fetch('/downloads', { headers: { accept: 'application/json' } });
      if (!response.ok) return [];
      const body = (await response.json()) as { packages?: DownloadablePackage[] };
      return body.packages ?? [];
    },
    staleTime: 5 * 60_000,
  });
}

export interface InstallCommands {
  /** `npm install <url>` of the TypeScript SDK. */
  npm?: string;
  /** `pip install <url>` of the Python SDK's wheel. */
  pip?: string;
  /** The MCP client configuration that runs the server from its tarball. */
  mcp?: string;
}

/** The commands that install each package from this server (`origin`), for what it serves. */
export function installCommands(
  origin: string,
  packages: readonly DownloadablePackage[],
): InstallCommands {
  const url = (name: string) => {
    const found = packages.find((p) => p.name === name);
    return found === undefined ? undefined : `${origin}${found.path}`;
  };
  const sdk = url('@interlock/sdk');
  const wheel = url('interlock-sdk');
  const mcp = url('@interlock/mcp');
  const config = {
    mcpServers: {
      interlock: {
        command: 'npx',
        args: ['-y', mcp],
        env: { INTERLOCK_API_KEY: 'ilk_…', INTERLOCK_BASE_URL: origin },
      },
    },
  };
  return {
    npm: sdk === undefined ? undefined : `npm install ${sdk}`,
    pip: wheel === undefined ? undefined : `pip install ${wheel}`,
    mcp: mcp === undefined ? undefined : JSON.stringify(config, null, 2),
  };
}
