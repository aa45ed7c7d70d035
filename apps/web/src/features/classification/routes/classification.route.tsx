import type { ClassificationRuleMode, ClassificationRuleResponse } from '@interlock/api-client';
import { Alert, Button, Code, Group, Paper, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { FormError } from '../../../shared/components/form-error';
import { PageHeader } from '../../../shared/components/page-header';
import { useCan } from '../../../shared/sign-in/sign-in-session.queries';
import { useClassificationRules, useDeleteRule, useSetRuleMode } from '../api/classification.queries';

/** What a rule matches, in a line. */
function describeMatch(rule: ClassificationRuleResponse): string {
  const m = rule.match;
  const parts = [
    m.actions && `actions ${m.actions.join(', ')}`,
    m.keyIds && `${m.keyIds.length} key(s)`,
    m.sessionIds && `${m.sessionIds.length} session(s)`,
    m.titleWords && `title has ${m.titleWords.join(' ')}`,
    ...(m.args ?? []).map((p) => `${p.path} ${p.op} ${JSON.stringify(p.value)}`),
    m.risk && `risk ${m.risk.join(', ')}`,
    m.labels && `labels ${m.labels.join(', ')}`,
  ].filter(Boolean);
  return parts.length === 0 ? 'every action' : parts.join(' · ');
}

function describeOutcome(rule: ClassificationRuleResponse): string {
  const o = rule.outcome;
  switch (o.type) {
    case 'reject':
      return `reject: “${o.message}”`;
    case 'route':
      return ['route', o.assignTo && ('teamId' in o.assignTo ? 'to a team' : 'to a member'), o.escalate && 'escalate'].filter(Boolean).join(' ');
    case 'require_human':
      return 'require a person';
    default:
      return 'approve';
  }
}

/** Settings → Classification: argus's rules, in evaluation order, with their mode. */
export function ClassificationRoute() {
  const canManage = useCan('classification.manage');
  const rules = useClassificationRules();
  const setMode = useSetRuleMode();
  const remove = useDeleteRule();
  return (
    <>
      <PageHeader
        title="Classification"
        description="Argus runs these rules on every interrupt before it reaches the inbox: lower priority first; shadow rules are recorded, never applied; the first matching enforce rule decides."
      />
      <Paper withBorder p="lg">
        <Stack gap="md">
          <FormError error={rules.error ?? setMode.error ?? remove.error} />
          {rules.data?.rules.length === 0 && (
            <Alert variant="light" title="No rules yet">
              Every action waits for a person. Create rules with POST /api/classification/rules (README, “Argus: classification rules”).
            </Alert>
          )}
          {rules.data !== undefined && rules.data.rules.length > 0 && (
            <Table striped aria-label="Classification rules">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Priority</Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Matches</Table.Th>
                  <Table.Th>Outcome</Table.Th>
                  <Table.Th>Mode</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  {canManage && <Table.Th />}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rules.data.rules.map((rule) => (
                  <Table.Tr key={rule.id}>
                    <Table.Td>{rule.priority}</Table.Td>
                    <Table.Td>
                      <Text fw={500}>{rule.name}</Text>
                      <Code>{rule.id.slice(0, 8)}</Code>
                    </Table.Td>
                    <Table.Td>{describeMatch(rule)}</Table.Td>
                    <Table.Td>{describeOutcome(rule)}</Table.Td>
                    <Table.Td>
                      {canManage ? (
                        <SegmentedControl
                          size="xs"
                          aria-label={`Mode of ${rule.name}`}
                          value={rule.mode}
                          data={['off', 'shadow', 'enforce']}
                          onChange={(mode) => setMode.mutate({ id: rule.id, mode: mode as ClassificationRuleMode })}
                        />
                      ) : (
                        rule.mode
                      )}
                    </Table.Td>
                    <Table.Td>{rule.expiresAt === null ? 'never' : new Date(rule.expiresAt).toLocaleDateString()}</Table.Td>
                    {canManage && (
                      <Table.Td>
                        <Group justify="flex-end">
                          <Button size="xs" variant="subtle" color="red" onClick={() => remove.mutate(rule.id)} aria-label={`Delete ${rule.name}`}>
                            Delete
                          </Button>
                        </Group>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      </Paper>
    </>
  );
}
