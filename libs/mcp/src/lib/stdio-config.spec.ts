import { readStdioConfig, StdioConfigError } from './stdio-config';

describe('readStdioConfig', () => {
  it('defaults the base URL and links the dashboard there', () => {
    expect(readStdioConfig({ INTERLOCK_API_KEY: 'ilk_x' })).toEqual({
      apiKey: 'ilk_x',
      baseURL: 'http://localhost:3000',
      dashboardUrl: 'http://localhost:3000',
    });
  });

  it('reads every variable', () => {
    expect(
      readStdioConfig({
        INTERLOCK_API_KEY: ' ilk_x ',
        INTERLOCK_BASE_URL: 'https://api.example.com/',
        INTERLOCK_DASHBOARD_URL: 'https://app.example.com/interlock/',
        INTERLOCK_PERMISSION_WAIT_SECONDS: '600',
      }),
    ).toEqual({
      apiKey: 'ilk_x',
      baseURL: 'https://api.example.com',
      dashboardUrl: 'https://app.example.com/interlock',
      permissionWaitSeconds: 600,
    });
  });

  it('reports every problem at once', () => {
    let error: unknown;
    try {
      readStdioConfig({
        INTERLOCK_BASE_URL: 'ftp://x',
        INTERLOCK_DASHBOARD_URL: 'nope',
        INTERLOCK_PERMISSION_WAIT_SECONDS: '1.5',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StdioConfigError);
    expect((error as StdioConfigError).problems).toHaveLength(4);
    expect((error as StdioConfigError).message).toContain('INTERLOCK_API_KEY is not set');
  });
});
