import { Alert, Anchor, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { FormError } from '@/shared/components/form-error';
import { JsonBlock } from '@/shared/components/json-block';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import { useDecide, useInterrupt } from '../api/interrupts.queries';

const VERBS = { approve: 'Approve', reject: 'Reject' } as const;
type LinkedDecision = keyof typeof VERBS;

/**
 * Where an email's Approve / Reject link leads (issue 30): opening it changes nothing; the
 * decision is this page's button, a POST by the signed-in member (interrupt.decide). A mail
 * scanner that fetches the link only ever sees this page.
 */
export function ConfirmDecisionRoute() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const actionName = params.get('action') ?? '';
  const decisionParam = params.get('decision') ?? '';
  const decision: LinkedDecision | null =
    decisionParam === 'approve' || decisionParam === 'reject' ? decisionParam : null;
  const canDecide = useCan('interrupt.decide');
  const interrupt = useInterrupt(id, false);
  const decide = useDecide();
  const [message, setMessage] = useState('');

  if (interrupt.isPending) return <CenteredLoader label="Loading the interrupt" />;
  if (interrupt.isError)
    return (
      <QueryError
        error={interrupt.error}
        title="Could not load this interrupt"
        onRetry={() => void interrupt.refetch()}
      />
    );
  const it = interrupt.data;
  const action = it.actionRequests.find((a) => a.name === actionName);
  const decided = it.decisions.find((d) => d.actionName === actionName);
  const back = (
    <Anchor component={Link} to={`/interrupts/${it.id}`} size="sm">
      Open the interrupt
    </Anchor>
  );

  let body;
  if (action === undefined || decision === null) {
    body = (
      <Alert color="red" title="This link does not name an action of this interrupt">
        {back}
      </Alert>
    );
  } else if (decided !== undefined) {
    body = (
      <Alert
        color={decided.decision === 'approve' ? 'green' : 'gray'}
        title={`${action.name} is decided: ${decided.decision}`}
      >
        <Stack gap={4}>
          <Text size="sm">By {decided.decidedBy.name}.</Text>
          {back}
        </Stack>
      </Alert>
    );
  } else if (it.status !== 'open') {
    body = <Alert title={`This interrupt is ${it.status}`}>{back}</Alert>;
  } else if (!action.allowedDecisions.includes(decision)) {
    body = (
      <Alert color="red" title={`${action.name} does not allow ${decision}`}>
        {back}
      </Alert>
    );
  } else if (!canDecide) {
    body = (
      <Alert color="red" title="You may not decide interrupts (interrupt.decide)">
        {back}
      </Alert>
    );
  } else {
    body = (
      <form
        onSubmit={(event) => {
          event.preventDefault();
          decide.mutate({
            id: it.id,
            body: {
              actionName: action.name,
              decision,
              ...(message.trim() === '' ? {} : { message: message.trim() }),
            },
          });
        }}
      >
        <Stack>
          <JsonBlock value={action.args} label={`Arguments of ${action.name}`} />
          {decision === 'reject' && (
            <Textarea
              label="Reason (the agent receives it)"
              value={message}
              onChange={(e) => setMessage(e.currentTarget.value)}
              autosize
              minRows={2}
            />
          )}
          <FormError error={decide.error} />
          <Group>
            <Button
              type="submit"
              color={decision === 'approve' ? 'green' : 'red'}
              loading={decide.isPending}
            >
              {VERBS[decision]} {action.name}
            </Button>
            <Button component={Link} to={`/interrupts/${it.id}`} variant="default">
              Not now
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }

  return (
    <>
      <PageHeader
        title={decision === null ? it.title : `${VERBS[decision]} ${actionName} for ${it.title}?`}
        description="Nothing is decided until you confirm."
      />
      <Paper withBorder p="lg" maw={720}>
        {body}
      </Paper>
    </>
  );
}
