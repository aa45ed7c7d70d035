import type { InterruptResponse } from '@interlock/api-client';
import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Countdown } from '@/shared/components/countdown';
import { DurationInput } from '@/shared/components/duration-input';
import { FormError } from '@/shared/components/form-error';
import { describeDuration } from '@/shared/utils/duration';
import { dateTime } from '@/shared/utils/format';
import { notifySuccess } from '@/shared/utils/notify';
import { useExtendDeadline } from '../api/interrupts.queries';
import { onTimeoutText } from './interrupt-badges';
import { whenSettled } from '@/shared/utils/when-settled';

/**
 * An interrupt's deadline (SPEC §8e): the time left and what happens then; members who decide
 * move it later (or give one to an interrupt without). Once it expired or was withdrawn, says so
 * and why.
 */
export function DeadlinePanel({
  interrupt,
  canDecide,
}: {
  interrupt: InterruptResponse;
  canDecide: boolean;
}) {
  const extend = useExtendDeadline();
  const [seconds, setSeconds] = useState(3_600);
  const expiresAt = interrupt.expiresAt ?? null;

  if (interrupt.status === 'expired') {
    return (
      <Alert color="orange" variant="light" title="Expired">
        No decision came before the deadline{expiresAt !== null && <> ({dateTime(expiresAt)})</>}:
        Interlock decided the undecided actions as actor system.
      </Alert>
    );
  }
  if (interrupt.status === 'withdrawn') {
    return (
      <Alert color="gray" variant="light" title="Withdrawn">
        {interrupt.withdrawnReason
          ? `Withdrawn: ${interrupt.withdrawnReason}`
          : 'Withdrawn by its agent, without a reason.'}{' '}
        Its undecided actions can no longer be decided.
      </Alert>
    );
  }
  if (interrupt.status !== 'open' && expiresAt === null) return null;

  return (
    <Paper withBorder p="md">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          whenSettled(
            extend.mutateAsync({ id: interrupt.id, timeoutSeconds: seconds }),
            (updated) => notifySuccess(`Deadline moved to ${dateTime(updated.expiresAt ?? '')}`),
          );
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h5">
            Deadline
          </Title>
          {expiresAt === null ? (
            <Text size="sm" c="dimmed">
              No deadline: it waits until someone decides.
            </Text>
          ) : interrupt.status === 'open' ? (
            <Stack gap={2}>
              <Text size="xs" c="dimmed">
                Time left
              </Text>
              <Text size="xl" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
                <Countdown deadline={expiresAt} />
              </Text>
              <Text size="sm">
                Until {dateTime(expiresAt)}; then {onTimeoutText(interrupt.onTimeout ?? null)}.
              </Text>
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              It had a deadline ({dateTime(expiresAt)}), but was answered before it.
            </Text>
          )}
          {canDecide && interrupt.status === 'open' && (
            <>
              <DurationInput
                label={expiresAt === null ? 'Set a deadline in' : 'New deadline in'}
                description={`From now: ${describeDuration(seconds)}. It must be later than the current deadline.`}
                seconds={seconds}
                onChange={setSeconds}
              />
              <Button type="submit" variant="light" w="fit-content" loading={extend.isPending}>
                {expiresAt === null ? 'Set deadline' : 'Extend deadline'}
              </Button>
              <FormError error={extend.error} />
            </>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
