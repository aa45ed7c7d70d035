import type { InterruptResponse } from '@interlock/api-client';
import { Button, Group, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { type RefObject, useRef, useState } from 'react';
import { FormError } from '@/shared/components/form-error';
import { assigneeOptionGroups, useMembers, useTeams } from '@/shared/directory/directory.queries';
import { useCan, useSignedIn } from '@/shared/sign-in/sign-in-session.queries';
import { notifySuccess } from '@/shared/utils/notify';
import { useAssign, useEscalate } from '../api/interrupts.queries';
import { AssigneeBadge } from './interrupt-badges';
import { whenSettled } from '@/shared/utils/when-settled';

/** Assign to a member or a team, or unassign. Whoever may assign may list members and teams. */
export function AssignPanel({ interrupt }: { interrupt: InterruptResponse }) {
  const { member } = useSignedIn();
  const canAssign = useCan('interrupt.assign');
  const members = useMembers({ enabled: useCan('member.manage') || canAssign });
  const teams = useTeams({ enabled: useCan('team.manage') || canAssign });
  const assign = useAssign();
  const [target, setTarget] = useState<string | null>(null);
  const data = assigneeOptionGroups(members.data, teams.data);
  const heading = useRef<HTMLHeadingElement>(null);
  const submit = (value: string | null) => {
    const from = document.activeElement;
    const [type, id] = value === null ? ['member', null] : value.split(':');
    whenSettled(
      assign.mutateAsync({
        id: interrupt.id,
        body: type === 'team' ? { teamId: id as string } : { memberId: id },
      }),
      (updated) => {
        setTarget(null);
        keepFocus(heading, from);
        notifySuccess(updated.assignee ? `Assigned to ${updated.assignee.name}` : 'Unassigned');
      },
    );
  };
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h5" ref={heading} tabIndex={-1}>
          Assignee
        </Title>
        {interrupt.assignee ? (
          <Group gap="xs">
            <AssigneeBadge assignee={interrupt.assignee} />
            {interrupt.status === 'open' && (
              <Button
                variant="subtle"
                color="gray"
                size="compact-xs"
                loading={assign.isPending}
                onClick={() => submit(null)}
              >
                Unassign
              </Button>
            )}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            Nobody yet
          </Text>
        )}
        {interrupt.status === 'open' && (
          <>
            {data.length > 0 && (
              <Group align="flex-end" gap="xs" wrap="nowrap">
                <Select
                  label="Assign to"
                  placeholder="A member or a team"
                  data={data}
                  value={target}
                  onChange={setTarget}
                  searchable
                  style={{ flex: 1 }}
                />
                <Button
                  disabled={target === null}
                  loading={assign.isPending}
                  onClick={() => target && submit(target)}
                >
                  Assign
                </Button>
              </Group>
            )}
            {!(interrupt.assignee?.type === 'member' && interrupt.assignee.id === member.id) && (
              <Button
                variant="default"
                size="xs"
                w="fit-content"
                loading={assign.isPending}
                onClick={() => submit(`member:${member.id}`)}
              >
                Assign to me
              </Button>
            )}
            <FormError error={assign.error} />
          </>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * Once an answer is in: the button that sent it may be gone ("Assign to me" once assigned to me,
 * "Unassign") or disabled (Assign, with nothing chosen), which leaves the focus on the page's
 * body. Then, unless the reviewer has moved on meanwhile, the panel's heading takes it, so Tab
 * goes on from the panel.
 */
function keepFocus(heading: RefObject<HTMLHeadingElement | null>, from: Element | null): void {
  window.requestAnimationFrame(() => {
    const now = document.activeElement;
    const lost =
      now === null ||
      now === document.body ||
      (now === from && (!from.isConnected || (from as HTMLButtonElement).disabled));
    if (lost) heading.current?.focus();
  });
}

/** Escalate, with an optional reason; each escalation raises the level. */
export function EscalatePanel({ interrupt }: { interrupt: InterruptResponse }) {
  const escalate = useEscalate();
  const [reason, setReason] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <Paper withBorder p="md">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const from = document.activeElement;
          whenSettled(
            escalate.mutateAsync({
              id: interrupt.id,
              reason: reason.trim() === '' ? undefined : reason.trim(),
            }),
            (updated) => {
              setReason('');
              keepFocus(heading, from);
              notifySuccess(`Escalated (level ${updated.escalationLevel})`);
            },
          );
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h5" ref={heading} tabIndex={-1}>
            Escalation
          </Title>
          <Text size="sm" c={interrupt.escalationLevel > 0 ? undefined : 'dimmed'}>
            {interrupt.escalationLevel === 0
              ? 'Not escalated.'
              : `Level ${interrupt.escalationLevel}${interrupt.escalationReason ? `: ${interrupt.escalationReason}` : ''}`}
          </Text>
          {interrupt.status === 'open' && (
            <>
              <Textarea
                label="Reason for escalating (optional)"
                value={reason}
                onChange={(e) => setReason(e.currentTarget.value)}
                maxLength={1000}
                autosize
                minRows={2}
              />
              <Button
                type="submit"
                color="red"
                variant="light"
                w="fit-content"
                loading={escalate.isPending}
              >
                Escalate
              </Button>
              <FormError error={escalate.error} />
            </>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
