import type {
  ClassificationRuleMode,
  ClassificationRuleStatsResponse,
  DryRunInterruptResult,
} from '@interlock/api-client';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Grid,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { FormError } from '@/shared/components/form-error';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { RelativeTime } from '@/shared/components/relative-time';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import {
  PREVIEW_INTERRUPTS,
  useAssigneeChoices,
  useClassificationRule,
  useKeyChoices,
  useSessionChoices,
  useRulePreview,
  useRuleStats,
  useSaveRule,
} from '../api/classification.queries';
import {
  ARG_OPS,
  type ArgOp,
  draftOf,
  EMPTY_FORM,
  formOf,
  OP_LABELS,
  RISKS,
  type RuleForm,
  type RuleRisk,
} from '../components/rule-draft';
import { whenSettled } from '@/shared/utils/when-settled';

/** Options for ids the lists do not hold (a session or member not loaded, or gone): shown by id. */
function withUnknown(
  options: { value: string; label: string }[],
  selected: readonly string[],
): { value: string; label: string }[] {
  const known = new Set(options.map((o) => o.value));
  return [
    ...options,
    ...selected.filter((v) => v !== '' && !known.has(v)).map((v) => ({ value: v, label: v })),
  ];
}

/** Settings → Classification → a rule: its editor with a live preview, and (saved) its evidence. */
export function RuleEditorRoute() {
  const { ruleId = 'new' } = useParams();
  const id = ruleId === 'new' ? undefined : ruleId;
  const rule = useClassificationRule(id);
  if (id !== undefined && rule.isPending) return <CenteredLoader label="Loading the rule" />;
  if (id !== undefined && rule.error) return <QueryError error={rule.error} />;
  return (
    <RuleEditor
      key={id ?? 'new'}
      id={id}
      initial={rule.data === undefined ? EMPTY_FORM : formOf(rule.data)}
    />
  );
}

function RuleEditor({ id, initial }: { id: string | undefined; initial: RuleForm }) {
  const canManage = useCan('classification.manage');
  const navigate = useNavigate();
  const [form, setForm] = useState<RuleForm>(initial);
  const set = <K extends keyof RuleForm>(key: K, value: RuleForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  /** Changes the `i`th argument condition. */
  const setArg = (i: number, change: Partial<RuleForm['args'][number]>) =>
    set(
      'args',
      form.args.map((r, j) => (j === i ? { ...r, ...change } : r)),
    );
  const built = useMemo(() => draftOf(form), [form]);
  const [debounced] = useDebouncedValue(built.ok ? built.draft : null, 300);
  const preview = useRulePreview(debounced);
  const keys = useKeyChoices();
  const sessions = useSessionChoices();
  const assignees = useAssigneeChoices();
  const save = useSaveRule(id);
  const [saved, setSaved] = useState(false);
  useEffect(() => setSaved(false), [form]);

  return (
    <>
      <PageHeader
        title={id === undefined ? 'New classification rule' : `Rule: ${initial.name}`}
        description="What the rule matches (every condition given must hold) and what argus then does. The preview runs it on the latest interrupts as you type; nothing is applied until you save, and a shadow rule is only recorded."
      />
      <Anchor
        component={Link}
        to="/settings/classification"
        size="sm"
        mb="sm"
        display="inline-block"
      >
        ← All rules
      </Anchor>
      <Grid>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Paper
            withBorder
            p="lg"
            component="form"
            aria-label="Rule"
            onSubmit={(e) => {
              e.preventDefault();
              if (!built.ok) return;
              whenSettled(save.mutateAsync(built.draft), (rule) => {
                setSaved(true);
                if (id === undefined)
                  void navigate(`/settings/classification/${rule.id}`, { replace: true });
              });
            }}
          >
            <Stack gap="sm">
              <TextInput
                label="Name"
                required
                maxLength={100}
                value={form.name}
                onChange={(e) => set('name', e.currentTarget.value)}
                disabled={!canManage}
              />
              <Group grow align="flex-start">
                <Stack gap={4}>
                  <Text size="sm" fw={500}>
                    Mode
                  </Text>
                  <SegmentedControl
                    aria-label="Mode"
                    value={form.mode}
                    data={['off', 'shadow', 'enforce']}
                    onChange={(v) => set('mode', v as ClassificationRuleMode)}
                    disabled={!canManage}
                  />
                </Stack>
                <NumberInput
                  label="Priority"
                  description="Lower runs first."
                  min={0}
                  max={1_000_000}
                  value={form.priority}
                  onChange={(v) => set('priority', typeof v === 'number' ? v : 100)}
                  disabled={!canManage}
                />
              </Group>
              <Title order={3} size="h5">
                Matches
              </Title>
              <TagsInput
                label="Action names"
                description="Exact names or globs (* any run, ? one character); empty: any action. Enter adds one."
                value={form.actions}
                onChange={(v) => set('actions', v)}
                disabled={!canManage}
              />
              <MultiSelect
                label="Opened by keys"
                description="Empty: any key."
                data={(keys.data?.apiKeys ?? []).map((k) => ({ value: k.id, label: k.name }))}
                value={form.keyIds}
                onChange={(v) => set('keyIds', v)}
                searchable
                disabled={!canManage}
              />
              <TagsInput
                label="Title words"
                description="Every word must be in the title."
                value={form.titleWords}
                onChange={(v) => set('titleWords', v)}
                disabled={!canManage}
              />
              <MultiSelect
                label="Sessions"
                description="The interrupt is linked to one of these sessions (the latest 100 listed). Empty: any."
                data={withUnknown(
                  (sessions.data?.sessions ?? []).map((x) => ({ value: x.id, label: x.name })),
                  form.sessionIds,
                )}
                value={form.sessionIds}
                onChange={(v) => set('sessionIds', v)}
                searchable
                disabled={!canManage}
              />
              <MultiSelect
                label="Risk"
                description="The external classifier's risk is one of these. Empty: any."
                data={RISKS}
                value={form.risk}
                onChange={(v) => set('risk', v as RuleRisk[])}
                disabled={!canManage}
              />
              <TagsInput
                label="Labels"
                description="The external classifier gave at least one of these labels. Empty: any."
                value={form.labels}
                onChange={(v) => set('labels', v)}
                disabled={!canManage}
              />
              <Stack gap={6}>
                <Text size="sm" fw={500}>
                  Argument conditions
                </Text>
                {form.args.map((row, i) => (
                  <Group key={i} gap="xs" wrap="nowrap" align="flex-end">
                    <TextInput
                      label={`Argument ${i + 1} path`}
                      placeholder="amount"
                      value={row.path}
                      onChange={(e) => setArg(i, { path: e.currentTarget.value })}
                      disabled={!canManage}
                    />
                    <Select
                      label={`Argument ${i + 1} test`}
                      data={ARG_OPS.map((op) => ({ value: op, label: OP_LABELS[op] }))}
                      value={row.op}
                      onChange={(v) => setArg(i, { op: (v ?? 'eq') as ArgOp })}
                      allowDeselect={false}
                      w={150}
                      disabled={!canManage}
                    />
                    <TextInput
                      label={`Argument ${i + 1} value`}
                      placeholder="100"
                      value={row.value}
                      onChange={(e) => setArg(i, { value: e.currentTarget.value })}
                      disabled={!canManage}
                    />
                    {canManage && (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Remove argument condition ${i + 1}`}
                        onClick={() =>
                          set(
                            'args',
                            form.args.filter((_r, j) => j !== i),
                          )
                        }
                        mb={4}
                      >
                        ×
                      </ActionIcon>
                    )}
                  </Group>
                ))}
                {canManage && (
                  <Button
                    variant="light"
                    size="xs"
                    w="fit-content"
                    onClick={() => set('args', [...form.args, { path: '', op: 'lte', value: '' }])}
                  >
                    Add an argument condition
                  </Button>
                )}
              </Stack>
              <Title order={3} size="h5">
                Then
              </Title>
              <Select
                label="Outcome"
                data={[
                  { value: 'approve', label: 'Approve' },
                  { value: 'reject', label: 'Reject, with a message to the agent' },
                  {
                    value: 'route',
                    label: 'Route (assign, escalate, approvals), leave it for a person',
                  },
                  { value: 'require_human', label: 'Require a person (stop here)' },
                  { value: 'policy', label: 'Cedar policies decide' },
                ]}
                value={form.outcome}
                onChange={(v) => set('outcome', (v ?? 'approve') as RuleForm['outcome'])}
                allowDeselect={false}
                disabled={!canManage}
              />
              {form.outcome === 'policy' && (
                <Textarea
                  label="Cedar policies"
                  description='permit approves, forbid rejects (its @message is the agent&apos;s message), neither leaves the action to the next rules. They read principal Key::"key id" and resource.name, .title, .labels, .risk, .session, and the arguments as .numbers / .strings / .flags tags by dotted path. Checked against the schema when you save.'
                  required
                  autosize
                  minRows={6}
                  maxRows={24}
                  maxLength={20_000}
                  value={form.policy}
                  onChange={(e) => set('policy', e.currentTarget.value)}
                  disabled={!canManage}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                  placeholder={
                    '@message("Wire transfers need a person.")\nforbid(principal, action, resource) when { resource.name == "wire" };'
                  }
                />
              )}
              {form.outcome === 'reject' && (
                <Textarea
                  label="Message to the agent"
                  required
                  maxLength={1000}
                  value={form.message}
                  onChange={(e) => set('message', e.currentTarget.value)}
                  disabled={!canManage}
                />
              )}
              {form.outcome === 'route' && (
                <>
                  <Select
                    label="Assign to"
                    description="A member or a team; a member who has left is skipped."
                    data={[
                      { group: 'Nobody', items: [{ value: '', label: 'Nobody' }] },
                      {
                        group: 'Teams',
                        items: withUnknown(
                          assignees.teams.map((x) => ({ value: `team:${x.id}`, label: x.name })),
                          form.assignTo.startsWith('team:') ? [form.assignTo] : [],
                        ),
                      },
                      {
                        group: 'Members',
                        items: withUnknown(
                          assignees.members.map((x) => ({
                            value: `member:${x.id}`,
                            label: `${x.name} (${x.email})`,
                          })),
                          form.assignTo.startsWith('member:') ? [form.assignTo] : [],
                        ),
                      },
                    ]}
                    value={form.assignTo}
                    onChange={(v) => set('assignTo', v ?? '')}
                    allowDeselect={false}
                    searchable
                    disabled={!canManage}
                  />
                  <Checkbox
                    label="Escalate"
                    checked={form.escalate}
                    onChange={(e) => set('escalate', e.currentTarget.checked)}
                    disabled={!canManage}
                  />
                  <Select
                    label="Approvals needed"
                    description="How many members must approve the action (a quorum above 1 leaves out Edit)."
                    data={['1', '2', '3', '4', '5'].map((n) => ({
                      value: n,
                      label: n === '1' ? '1 (as the agent asks)' : `${n} members`,
                    }))}
                    value={String(form.requiredApprovals)}
                    onChange={(v) => set('requiredApprovals', Number(v ?? '1'))}
                    allowDeselect={false}
                    disabled={!canManage}
                  />
                  <Select
                    label="Approved by"
                    description="Only this team's members may decide the action; it needs at least as many members as approvals."
                    data={[
                      { value: '', label: 'Any member who may decide' },
                      ...withUnknown(
                        assignees.teams.map((x) => ({ value: x.id, label: x.name })),
                        form.approverTeamId === '' ? [] : [form.approverTeamId],
                      ),
                    ]}
                    value={form.approverTeamId}
                    onChange={(v) => set('approverTeamId', v ?? '')}
                    allowDeselect={false}
                    searchable
                    disabled={!canManage}
                  />
                </>
              )}
              <TextInput
                type="date"
                label="Expires on"
                description="Empty: never."
                value={form.expiresOn}
                onChange={(e) => set('expiresOn', e.currentTarget.value)}
                disabled={!canManage}
              />
              {!built.ok && (
                <Text size="sm" c="orange" role="status">
                  {built.problem}
                </Text>
              )}
              <FormError error={save.error} />
              {canManage && (
                <Group>
                  <Button
                    type="submit"
                    disabled={!built.ok || form.name.trim() === ''}
                    loading={save.isPending}
                  >
                    {id === undefined ? 'Create rule' : 'Save rule'}
                  </Button>
                  {saved && (
                    <Text size="sm" c="teal" role="status">
                      Saved.
                    </Text>
                  )}
                </Group>
              )}
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Stack>
            <Preview
              results={preview.data?.results}
              error={preview.error}
              pending={preview.isFetching}
            />
            {id !== undefined && <Evidence id={id} />}
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  );
}

const RESULT_LABEL: Record<string, string> = {
  approve: 'approve',
  reject: 'reject',
  route: 'route',
  require_human: 'require a person',
};

function Preview({
  results,
  error,
  pending,
}: {
  results: DryRunInterruptResult[] | undefined;
  error: Error | null;
  pending: boolean;
}) {
  const matched = (results ?? []).flatMap((r) =>
    r.actions.filter((a) => a.result !== 'person').map((a) => ({ interrupt: r, action: a })),
  );
  const actions = (results ?? []).reduce((n, r) => n + r.actions.length, 0);
  return (
    <Paper withBorder p="lg" aria-label="Preview" component="section">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Preview
          </Title>
          {pending && (
            <Text size="xs" c="dimmed">
              updating…
            </Text>
          )}
        </Group>
        <FormError error={error} />
        {results !== undefined && (
          <Text size="sm" role="status" aria-live="polite">
            Matches {matched.length} of {actions} actions in the latest{' '}
            {Math.min(results.length, PREVIEW_INTERRUPTS)} interrupts.
          </Text>
        )}
        {(results ?? []).some((r) => r.actions.some((a) => a.classifier === 'not_asked')) && (
          <Text size="xs" c="dimmed" data-classifier-not-asked="">
            The external classifier is not asked in this preview (it runs on every change), so
            conditions on risk and labels match nothing here. A dry run with askClassifier asks it.
          </Text>
        )}
        {matched.length > 0 && (
          <Table aria-label="Matching actions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Interrupt</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>Would</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {matched.slice(0, 20).map(({ interrupt, action }) => (
                <Table.Tr key={`${interrupt.interruptId}-${action.actionName}`}>
                  <Table.Td>
                    <Anchor component={Link} to={`/interrupts/${interrupt.interruptId}`} size="sm">
                      {interrupt.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{action.actionName}</Table.Td>
                  <Table.Td>
                    {action.skipped === 'decision_not_allowed'
                      ? 'go to a person (decision not allowed)'
                      : RESULT_LABEL[action.result]}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}

/** What the saved rule matched, and in shadow mode how often people decided as it would have. */
function Evidence({ id }: { id: string }) {
  const stats = useRuleStats(id);
  if (stats.error) return <QueryError error={stats.error} />;
  if (stats.data === undefined) return null;
  return <EvidencePanel stats={stats.data} />;
}

export function EvidencePanel({ stats }: { stats: ClassificationRuleStatsResponse }) {
  const s = stats.shadow;
  return (
    <Paper withBorder p="lg" aria-label="Evidence" component="section">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Evidence
        </Title>
        <Text size="sm" data-testid="shadow-stats">
          In shadow mode: matched {s.matched}, would have decided {s.wouldDecide}; people decided{' '}
          {s.decidedByPeople} of those and agreed with the rule on {s.agreed} of {s.decidedByPeople}
          .
        </Text>
        <Text size="sm" data-testid="enforce-stats">
          Enforced: matched {stats.enforce.matched}, decided {stats.enforce.decided}.
        </Text>
        {stats.lastMatchedAt !== null && (
          <Text size="xs" c="dimmed">
            Last matched <RelativeTime value={stats.lastMatchedAt} />. The figures start again when
            what the rule matches or does changes.
          </Text>
        )}
        {stats.disagreements.length === 0 ? (
          <Alert variant="light" color={s.decidedByPeople > 0 ? 'teal' : 'gray'}>
            {s.decidedByPeople > 0
              ? 'No disagreements: people decided every compared action as this rule would have.'
              : 'Nothing compared yet.'}
          </Alert>
        ) : (
          <Table aria-label="Disagreements">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Interrupt</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>Rule</Table.Th>
                <Table.Th>Person</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {stats.disagreements.map((d) => (
                <Table.Tr key={`${d.interruptId}-${d.actionName}`}>
                  <Table.Td>
                    <Anchor component={Link} to={`/interrupts/${d.interruptId}`} size="sm">
                      {d.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{d.actionName}</Table.Td>
                  <Table.Td>
                    <Badge variant="light">{d.outcome}</Badge>
                  </Table.Td>
                  <Table.Td>
                    {d.decision} by {d.decidedByName ?? 'a person'}{' '}
                    <RelativeTime value={d.decidedAt} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
