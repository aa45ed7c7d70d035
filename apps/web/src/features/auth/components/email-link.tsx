import { Loader, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Fragment, type ReactNode, useEffect, useRef } from 'react';
import { useFragmentToken } from '../utils/use-fragment-token';

/**
 * A page opened from an emailed link (`/page#<token>`: `useFragmentToken`), titled `title`:
 * without a token, the title and what `missing` says; with one, what `opened` makes of it (a
 * fresh one for each token).
 */
export function EmailLinkPage({
  title,
  missing,
  opened,
}: {
  title: string;
  missing: ReactNode;
  opened: (token: string) => ReactNode;
}) {
  useDocumentTitle(`${title} · Interlock`);
  const token = useFragmentToken();
  if (token === '') return <LinkOutcome title={title}>{missing}</LinkOutcome>;
  return <Fragment key={token}>{opened(token)}</Fragment>;
}

/** What a link's page says: a heading, then the rest. */
export function LinkOutcome({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack>
      <Title order={1} size="h3">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** Uses a link's token at once, once per link (also when the effect runs twice in development). */
export function useLinkAtOnce(token: string, use: (token: string) => void): void {
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    use(token);
  }, [token, use]);
}

/** The page while a link is being used. */
export function LinkPending({ doing }: { doing: string }) {
  return (
    <Stack align="center">
      <Loader aria-label={doing} />
      <Text>{doing}…</Text>
    </Stack>
  );
}
