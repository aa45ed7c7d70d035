import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@/app/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { whenFirstReadsSettle } from '@/app/first-render';
import { queryClient } from '@/app/query-client';
import { router } from '@/app/router';

/** How long the first render waits for the page's first reads before drawing its loaders. */
const FIRST_READS_LIMIT_MS = 1_500;

const root = createRoot(document.getElementById('root') as HTMLElement);
void whenFirstReadsSettle(router, queryClient, FIRST_READS_LIMIT_MS).then(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
