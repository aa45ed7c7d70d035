import type {
  ClassificationRuleListItem,
  ClassificationRuleMode,
  ClassificationRuleResponse,
} from '@interlock/api-client';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  SegmentedControl,
  Space,
  Stack,
  Table,
  Text,
  useMatches,
} from '@mantine/core';
import { Link } from 'react-router';
import { ConfirmButton } from '@/shared/components/confirm';
import { FormError } from '@/shared/components/form-error';
import { PageHeader } from '@/shared/components/page-header';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import {
  useClassificationRules,
  useDeleteRule,
  useSetRuleMode,
} from '../api/classification.queries';
import { describeMatch } from '../components/describe-match';
import { ClassifierPanel } from '../components/classifier-panel';
import { SuggestionCards } from '../components/suggestion-cards';

function describeOutcome(rule: ClassificationRuleResponse): string {
  const o = rule.outcome;
  switch (o.type) {
    case 'reject':
      return `reject: “${o.message}”`;
    case 'route':
      return [
        'route',
        o.assignTo && ('teamId' in o.assignTo ? 'to a team' : 'to a member'),
        o.escalate && 'escalate',
        o.requiredApprovals !== undefined && `${o.requiredApprovals} approvals`,
        o.approverTeam !== undefined && 'by a team',
      ]
        .filter(Boolean)
        .join(' ');
    case 'require_human':
      return 'require a person';
    case 'policy':
      return 'Cedar policies decide';
    default:
      return 'approve';
  }
}

/** A rule's evidence in a line: in shadow, how often people agreed; enforced, what it decided. */
function describeStats(rule: ClassificationRuleListItem): string {
  const { shadow, enforce } = rule.stats;
  const parts = [];
  if (shadow.matched > 0)
    parts.push(
      `shadow: matched ${shadow.matched}, agreed ${shadow.agreed} of ${shadow.decidedByPeople}`,
    );
  if (enforce.matched > 0)
    parts.push(`enforced: matched ${enforce.matched}, decided ${enforce.decided}`);
  return parts.length === 0 ? 'no matches yet' : parts.join(' · ');
}

/** Settings → Classification: argus's rules, in evaluation order, with their mode. */
export function ClassificationRoute() {
  const canManage = useCan('classification.manage');
  // Stacked until the window is wide (75em): side by side, the three modes leave the table no
  // room on a tablet (768×1024, every-page.e2e-spec.ts).
  const modeOrientation = useMatches<'vertical' | 'horizontal'>({
    base: 'vertical',
    lg: 'horizontal',
  });
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
          {canManage && (
            <Group>
              <Button component={Link} to="/settings/classification/new">
                New rule
              </Button>
            </Group>
          )}
          <SuggestionCards canManage={canManage} />
          {rules.data?.rules.length === 0 && (
            <Alert variant="light" title="No rules yet">
              Every action waits for a person. Write a rule, start it in shadow mode, and switch it
              to enforce when people agree with it.
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
                  <Table.Th>Evidence</Table.Th>
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
                      <Anchor component={Link} to={`/settings/classification/${rule.id}`} fw={500}>
                        {rule.name}
                      </Anchor>
                      <Code>{rule.id.slice(0, 8)}</Code>
                      {rule.origin === 'always_allow' && (
                        <Badge variant="light" color="teal" size="sm" ml={6}>
                          Always allow
                        </Badge>
                      )}
                      {rule.paused !== null && (
                        <Text size="xs" c="dimmed">
                          Paused: {rule.paused.byName} rejected {rule.paused.actionName}{' '}
                          <Anchor
                            component={Link}
                            to={`/interrupts/${rule.paused.interruptId}`}
                            size="xs"
                          >
                            (the interrupt)
                          </Anchor>
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{describeMatch(rule.match)}</Table.Td>
                    <Table.Td>{describeOutcome(rule)}</Table.Td>
                    <Table.Td>{describeStats(rule)}</Table.Td>
                    <Table.Td>
                      {canManage ? (
                        <SegmentedControl
                          size="xs"
                          orientation={modeOrientation}
                          aria-label={`Mode of ${rule.name}`}
                          value={rule.mode}
                          data={['off', 'shadow', 'enforce']}
                          onChange={(mode) =>
                            setMode.mutate({ id: rule.id, mode: mode as ClassificationRuleMode })
                          }
                        />
                      ) : (
                        rule.mode
                      )}
                    </Table.Td>
                    <Table.Td>
                      {rule.expiresAt === null
                        ? 'never'
                        : new Date(rule.expiresAt).toLocaleDateString()}
                    </Table.Td>
                    {canManage && (
                      <Table.Td>
                        <Group justify="flex-end">
                          <ConfirmButton
                            size="xs"
                            variant="subtle"
                            color="red"
                            confirm={{
                              title: `Delete rule ${rule.name}?`,
                              body: 'Argus stops applying it at once, and its evidence (matches and agreement) is deleted with it. Its receipts stay in the audit log.',
                              confirmLabel: 'Delete rule',
                              onConfirm: () => remove.mutateAsync(rule.id),
                            }}
                            aria-label={`Delete ${rule.name}`}
                          >
                            Delete
                          </ConfirmButton>
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
      <Space h="md" />
      <ClassifierPanel canManage={canManage} />
    </>
  );
}
