import { Anchor, Button, Loader, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Fragment, type ReactNode, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { FormError } from '@/shared/components/form-error';
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
function useLinkAtOnce(token: string, use: (token: string) => void): void {
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    use(token);
  }, [token, use]);
}

/** The page while a link is being used. */
function LinkPending({ doing }: { doing: string }) {
  return (
    <Stack align="center">
      <Loader aria-label={doing} />
      <Text>{doing}…</Text>
    </Stack>
  );
}

/**
 * A link whose token is used at once (`useLinkAtOnce`) by `use`, a mutation: while it runs, what
 * it is `doing`; done, `doneTitle`, what `done` says and the way into Interlock; refused,
 * `failedTitle`, the API's message and where to ask again (`retry`).
 */
export function LinkUsedAtOnce({
  token,
  use,
  doing,
  doneTitle,
  done,
  failedTitle,
  retry,
}: {
  token: string;
  use: { mutate: (token: string) => void; isSuccess: boolean; isError: boolean; error: unknown };
  doing: string;
  doneTitle: string;
  done: ReactNode;
  failedTitle: string;
  retry: { to: string; label: string };
}) {
  useLinkAtOnce(token, use.mutate);
  if (use.isSuccess) {
    return (
      <LinkOutcome title={doneTitle}>
        <Text>{done}</Text>
        <Button component={Link} to="/">
          Open Interlock
        </Button>
      </LinkOutcome>
    );
  }
  if (use.isError) {
    return (
      <LinkOutcome title={failedTitle}>
        <FormError error={use.error} />
        <Anchor component={Link} to={retry.to}>
          {retry.label}
        </Anchor>
      </LinkOutcome>
    );
  }
  return <LinkPending doing={doing} />;
}
