import type { EscalationPolicyResponse, EscalationStepDto } from '@interlock/api-client';
import {
  ActionIcon,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useId } from 'react';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { DraftActions, useDraft } from '@/shared/components/draft-actions';
import { DurationInput } from '@/shared/components/duration-input';
import { FormError } from '@/shared/components/form-error';
import { QueryError } from '@/shared/components/query-error';
import { assigneeOptionGroups, useMembers, useTeams } from '@/shared/directory/directory.queries';
import { describeDuration } from '@/shared/utils/duration';
import { notifySuccess } from '@/shared/utils/notify';
import { whenSettled } from '@/shared/utils/when-settled';
import { useEscalationPolicy, useReplaceEscalationPolicy } from '../api/organisation.queries';

/** SPEC §8e: at most 10 steps, each at most 30 days (43,200 minutes) after the interrupt came under the policy. */
const MAX_STEPS = 10;
const MAX_AFTER_MINUTES = 43_200;

/** A step as the form holds it: `assignTo` as `member:<id>` / `team:<id>`, or null. */
interface DraftStep {
  afterMinutes: number;
  action: 'remind' | 'escalate';
  when: 'undecided' | 'unassigned';
  assignTo: string | null;
}

function toDraft(policy: EscalationPolicyResponse): DraftStep[] {
  return policy.steps.map((s) => ({
    afterMinutes: s.afterMinutes,
    action: s.action,
    when: s.when,
    assignTo:
      s.assignTo?.memberId !== undefined
        ? `member:${s.assignTo.memberId}`
        : s.assignTo?.teamId !== undefined
          ? `team:${s.assignTo.teamId}`
          : null,
  }));
}

function toBody(steps: DraftStep[]): EscalationStepDto[] {
  return steps.map((s) => {
    const [type, id] = s.assignTo?.split(':') ?? [];
    return {
      afterMinutes: s.afterMinutes,
      action: s.action,
      when: s.when,
      assignTo:
        s.action !== 'escalate' || id === undefined
          ? null
          : type === 'team'
            ? { teamId: id }
            : { memberId: id },
    };
  });
}

const same = (a: DraftStep[], b: DraftStep[]) =>
  JSON.stringify(toBody(a)) === JSON.stringify(toBody(b));

/** What is wrong with a step, as the service would refuse it (SPEC §8e), or null. */
function problem(steps: DraftStep[], i: number): string | null {
  const step = steps[i];
  if (step.afterMinutes > MAX_AFTER_MINUTES) return 'A step comes at most 30 days after.';
  if (i > 0 && step.afterMinutes <= steps[i - 1].afterMinutes)
    return `Must come later than step ${i} (${describeDuration(steps[i - 1].afterMinutes * 60)}).`;
  return null;
}

/**
 * One escalation policy — the organisation's (`team` absent) or a team's — as an editable list of
 * steps: after how long, remind or escalate, on which condition, and (escalate) to whom.
 * Members without team.manage see it read-only.
 */
export function EscalationPolicyEditor({
  team,
  canManage,
  canListDirectory,
}: {
  team?: { id: string; name: string };
  canManage: boolean;
  /** Whether the member may list members and teams (member.manage / team.manage / interrupt.assign). */
  canListDirectory: boolean;
}) {
  const teamId = team?.id ?? null;
  const policy = useEscalationPolicy(teamId);
  const save = useReplaceEscalationPolicy(teamId);
  const members = useMembers({ enabled: canListDirectory });
  const teams = useTeams({ enabled: canListDirectory });
  const [draft, setDraft] = useDraft(policy.data, toDraft);
  const headingId = useId();
  const where = team === undefined ? 'Organisation policy' : `Policy of team ${team.name}`;

  if (policy.isError)
    return <QueryError error={policy.error} onRetry={() => void policy.refetch()} />;
  if (policy.isPending || draft === null)
    return <CenteredLoader label={`Loading the ${where.toLowerCase()}`} />;

  const saved = toDraft(policy.data);
  const changed = !same(draft, saved);
  const problems = draft.map((_, i) => problem(draft, i));
  const invalid = problems.some((p) => p !== null);
  const update = (i: number, change: Partial<DraftStep>) =>
    setDraft(draft.map((s, j) => (j === i ? { ...s, ...change } : s)));

  const groups = assigneeOptionGroups(members.data, teams.data);
  const targetOptions = (current: string | null) => [
    { value: '', label: 'Nobody new (keep the assignee)' },
    ...groups,
    // A member or team this form cannot name (not listed to this member, or gone since).
    ...(current !== null && !groups.some((g) => g.items.some((k) => k.value === current))
      ? [
          {
            value: current,
            label: current.startsWith('team:') ? 'A team (not listed)' : 'A member (not listed)',
          },
        ]
      : []),
  ];

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby={headingId}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          whenSettled(save.mutateAsync({ steps: toBody(draft) }), () =>
            notifySuccess(`${where} saved`),
          );
        }}
      >
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={2} size="h4" id={headingId}>
              {where}
            </Title>
            <Text size="sm" c="dimmed">
              {team === undefined
                ? 'Applies to every open interrupt, counted from when it opened — except those assigned to a team with a policy of its own.'
                : `Applies instead of the organisation's to interrupts assigned to team ${team.name}, counted from when the team got them. Without steps, the organisation's policy applies.`}
            </Text>
          </Stack>
          {draft.length === 0 && (
            <Text size="sm">
              {team === undefined
                ? 'No steps: open interrupts wait without reminders or escalations.'
                : "No steps: the organisation's policy applies."}
            </Text>
          )}
          {draft.map((step, i) => {
            const label = `Step ${i + 1}`;
            return (
              <Paper key={i} withBorder p="sm" radius="sm">
                <Stack gap="xs">
                  <Group justify="space-between" wrap="nowrap">
                    <Text fw={600} size="sm">
                      {label}
                    </Text>
                    {canManage && (
                      <Tooltip label={`Remove step ${i + 1}`}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Remove step ${i + 1}`}
                          onClick={() => setDraft(draft.filter((_, j) => j !== i))}
                        >
                          ×
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                  <Group align="flex-start" gap="md" wrap="wrap">
                    <DurationInput
                      label={`${label}: after`}
                      seconds={step.afterMinutes * 60}
                      disabled={!canManage}
                      onChange={(seconds) =>
                        update(i, { afterMinutes: Math.max(1, Math.round(seconds / 60)) })
                      }
                    />
                    <Select
                      label={`${label}: do`}
                      data={[
                        { value: 'remind', label: 'Remind the assignee' },
                        { value: 'escalate', label: 'Escalate' },
                      ]}
                      value={step.action}
                      allowDeselect={false}
                      disabled={!canManage}
                      onChange={(value) =>
                        value !== null &&
                        update(i, {
                          action: value as DraftStep['action'],
                          assignTo: value === 'escalate' ? step.assignTo : null,
                        })
                      }
                      w={200}
                    />
                    <Select
                      label={`${label}: if`}
                      data={[
                        { value: 'undecided', label: 'Still undecided' },
                        // A team's policy governs only interrupts the team holds (SPEC §8e).
                        ...(team === undefined || step.when === 'unassigned'
                          ? [{ value: 'unassigned', label: 'Still unassigned' }]
                          : []),
                      ]}
                      value={step.when}
                      allowDeselect={false}
                      disabled={!canManage}
                      onChange={(value) =>
                        value !== null && update(i, { when: value as DraftStep['when'] })
                      }
                      w={180}
                    />
                    {step.action === 'escalate' && (
                      <Select
                        label={`${label}: assign to`}
                        data={targetOptions(step.assignTo)}
                        value={step.assignTo ?? ''}
                        allowDeselect={false}
                        searchable
                        disabled={!canManage}
                        onChange={(value: string | null) => update(i, { assignTo: value || null })}
                        w={240}
                        maw="100%"
                      />
                    )}
                  </Group>
                  {problems[i] !== null && (
                    <Text size="sm" c="red" role="alert">
                      {problems[i]}
                    </Text>
                  )}
                </Stack>
              </Paper>
            );
          })}
          <FormError error={save.error} />
          {canManage && (
            <DraftActions
              saveLabel={`Save ${team === undefined ? 'organisation policy' : `policy of team ${team.name}`}`}
              changed={changed}
              invalid={invalid}
              saving={save.isPending}
              onDiscard={() => setDraft(saved)}
            >
              <Button
                variant="default"
                disabled={draft.length >= MAX_STEPS}
                onClick={() =>
                  setDraft([
                    ...draft,
                    {
                      afterMinutes: Math.min(
                        MAX_AFTER_MINUTES,
                        (draft.at(-1)?.afterMinutes ?? 0) + 30,
                      ),
                      action: draft.length === 0 ? 'remind' : 'escalate',
                      when: 'undecided',
                      assignTo: null,
                    },
                  ])
                }
              >
                Add step
              </Button>
            </DraftActions>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
