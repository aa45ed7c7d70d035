import type { ResumeDelivery } from '@interlock/api-client';
import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { RelativeTime } from '@/shared/components/relative-time';

const STATUS_LABEL: Record<ResumeDelivery['status'], string> = {
  waiting: 'Waiting',
  pending: 'Pending',
  delivering: 'Delivering',
  retrying: 'Retrying',
  delivered: 'Delivered',
  failed: 'Failed',
};

const STATUS_COLOR: Record<ResumeDelivery['status'], string> = {
  waiting: 'gray',
  pending: 'blue',
  delivering: 'blue',
  retrying: 'yellow',
  delivered: 'green',
  failed: 'red',
};

/** "attempt 2 of 9" */
const attemptOf = (resume: ResumeDelivery) => `attempt ${resume.attempts} of ${resume.maxAttempts}`;

/** What the last attempt met: the endpoint's status, or why there was none. */
function lastAnswer(resume: ResumeDelivery): string | null {
  if (resume.lastAttemptAt === null) return null;
  const status =
    resume.lastResponseStatus === null
      ? 'no answer'
      : `the endpoint answered ${resume.lastResponseStatus}`;
  return resume.lastError === null ? status : `${status}: ${resume.lastError}`;
}

/**
 * Where the POST of the result to the agent's resumeUrl stands (SPEC §8e, `include=resume`): for
 * every member who may read the interrupt — whether the agent was resumed, is about to be, or
 * was not (attempts, the last answer, the next try). Nothing when the interrupt has no resumeUrl;
 * the URL itself is never shown.
 */
export function ResumeDeliveryPanel({ resume }: { resume: ResumeDelivery | null | undefined }) {
  const headingId = useId();
  if (resume === null || resume === undefined) return null;
  const last = lastAnswer(resume);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Title order={2} size="h5" id={headingId}>
          Resuming the agent
        </Title>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Badge
            color={STATUS_COLOR[resume.status]}
            variant="light"
            style={{ flexShrink: 0 }}
            data-testid="resume-status"
          >
            {STATUS_LABEL[resume.status]}
          </Badge>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {resume.status === 'waiting' &&
              'When the interrupt is decided or expires, the service posts the result to the agent’s resume URL.'}
            {resume.status === 'pending' && 'The result is due to be posted; not tried yet.'}
            {resume.status === 'delivering' && `Posting the result now (${attemptOf(resume)}).`}
            {resume.status === 'retrying' && `${attemptOf(resume)} failed; it is tried again.`}
            {resume.status === 'delivered' &&
              `The agent received the result (${attemptOf(resume)}).`}
            {resume.status === 'failed' &&
              `Not delivered after ${resume.attempts} attempts: the agent was not resumed by the service.`}
          </Text>
        </Group>
        {last !== null && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Last attempt <RelativeTime value={resume.lastAttemptAt as string} />: {last}
          </Text>
        )}
        {resume.nextAttemptAt !== null &&
          (resume.status === 'retrying' || resume.status === 'pending') && (
            <Text size="sm" c="dimmed">
              Next attempt <RelativeTime value={resume.nextAttemptAt} />
            </Text>
          )}
      </Stack>
    </Paper>
  );
}
