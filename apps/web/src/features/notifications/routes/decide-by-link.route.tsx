import { Alert, Anchor, Button, Stack, Text, Textarea, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { FormError } from '@/shared/components/form-error';
import { JsonBlock } from '@/shared/components/json-block';
import { errorMessage } from '@/shared/utils/errors';
import { useActionLinkPreview, useDecideWithActionLink } from '../api/notifications.queries';

const VERBS = { approve: 'Approve', reject: 'Reject' } as const;

/**
 * Where an email's single-use Approve / Reject link leads when the organisation lets links decide
 * (issue 30, §2): `/decide#<token>`. The token stays in the fragment, which no request carries
 * (so no log and no mail scanner sees it); opening the page changes nothing, and the decision is
 * this page's button — no sign-in needed, the link names the member.
 */
export function DecideByLinkRoute() {
  const { hash } = useLocation();
  const token = decodeURIComponent(hash.replace(/^#/, ''));
  const preview = useActionLinkPreview(token);
  const decide = useDecideWithActionLink(token);
  const [message, setMessage] = useState('');
  useDocumentTitle('Decide · Interlock');

  const signIn = (
    <Anchor component={Link} to="/" size="sm">
      Open Interlock
    </Anchor>
  );
  if (token === '') {
    return (
      <Alert color="red" title="This link is incomplete">
        <Stack gap={4}>
          <Text size="sm">Open the link from the email again, whole.</Text>
          {signIn}
        </Stack>
      </Alert>
    );
  }
  if (preview.isPending) return <CenteredLoader label="Opening the link" />;
  if (preview.isError) {
    return (
      <Alert color="red" title="This link cannot decide">
        <Stack gap={4}>
          <Text size="sm">{errorMessage(preview.error)}</Text>
          {signIn}
        </Stack>
      </Alert>
    );
  }
  const it = preview.data;
  const verb = VERBS[it.decision];
  const interruptLink = (
    <Anchor component={Link} to={`/interrupts/${it.interruptId}`} size="sm">
      Open the interrupt (signed in)
    </Anchor>
  );

  let body;
  if (it.decided !== null) {
    body = (
      <Alert
        color={it.decided.decision === 'approve' ? 'green' : 'gray'}
        title={`${it.action.name} is decided: ${it.decided.decision}`}
      >
        <Stack gap={4}>
          <Text size="sm">By {it.decided.decidedBy}.</Text>
          {interruptLink}
        </Stack>
      </Alert>
    );
  } else if (it.status !== 'open') {
    body = <Alert title={`This interrupt is ${it.status}`}>{interruptLink}</Alert>;
  } else if (!it.action.allowedDecisions.includes(it.decision)) {
    body = (
      <Alert color="red" title={`${it.action.name} does not allow ${it.decision}`}>
        {interruptLink}
      </Alert>
    );
  } else {
    body = (
      <form
        onSubmit={(event) => {
          event.preventDefault();
          decide.mutate(
            it.decision === 'reject' && message.trim() !== '' ? message.trim() : undefined,
          );
        }}
      >
        <Stack>
          <JsonBlock value={it.action.args} label={`Arguments of ${it.action.name}`} />
          {it.decision === 'reject' && (
            <Textarea
              label="Reason (the agent receives it)"
              value={message}
              onChange={(e) => setMessage(e.currentTarget.value)}
              autosize
              minRows={2}
            />
          )}
          <FormError error={decide.error} />
          <Button
            type="submit"
            color={it.decision === 'approve' ? 'green' : 'red'}
            loading={decide.isPending}
            fullWidth
          >
            {verb} {it.action.name}
          </Button>
          <Text size="xs" c="dimmed">
            You decide as {it.memberName} in {it.organisationName}. This link works once, until{' '}
            {new Date(it.expiresAt).toLocaleString()}.
          </Text>
        </Stack>
      </form>
    );
  }

  return (
    <Stack>
      <Title order={1} size="h3">
        {verb} {it.action.name} for {it.title}?
      </Title>
      <Text size="sm" c="dimmed">
        Nothing is decided until you confirm.
      </Text>
      {it.description !== null && <Text size="sm">{it.description}</Text>}
      {it.action.description !== null && (
        <Text size="sm">
          <strong>{it.action.name}</strong> — {it.action.description}
        </Text>
      )}
      {body}
    </Stack>
  );
}
