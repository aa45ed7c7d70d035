import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { AfterFirstPaint } from '@/shared/components/after-first-paint';
import { queryClient } from './query-client';
import { router } from './router';
import { cssVariablesResolver, theme } from './theme';

/** Light or dark: the browser's preference ("auto") unless Settings chose one for this browser. */
const colorSchemeManager = localStorageColorSchemeManager({ key: 'interlock.colorScheme' });

export function App() {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
    >
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <AfterFirstPaint>
            <Notifications position="top-right" />
          </AfterFirstPaint>
          <RouterProvider router={router} />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
