import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter } from 'react-router';

/**
 * Renders a component inside what the app provides (Mantine, a fresh query cache, a router at
 * `path`, the modals), so a test sees it as a page would; `rerender` keeps them.
 */
export function renderWithApp(
  ui: ReactElement,
  { path = '/', state }: { path?: string; state?: unknown } = {},
) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <MemoryRouter initialEntries={[state === undefined ? path : { pathname: path, state }]}>
            {children}
          </MemoryRouter>
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
  return { ...render(ui, { wrapper }), queryClient };
}
