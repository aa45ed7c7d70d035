import type { ActionRequestResponse, InterruptResponse } from '@interlock/api-client';
import {
  Anchor,
  Button,
  Code,
  Group,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { notifications } from '@mantine/notifications';
import { FormError } from '@/shared/components/form-error';
import { useAlwaysAllow } from '../api/interrupts.queries';
import { type ArgChoice, conditionsOf, NAMEABLE } from './always-allow';
import { whenSettled } from '@/shared/utils/when-settled';

const EXPIRY_DAYS = ['1', '7', '30', '90', '365'];

function shortValue(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/**
 * "Always allow this" (SPEC §8d): approve this action and let argus approve the same from this
 * key from now on — each argument exactly as here, within a bound, or any value — until it expires.
 */
export function AlwaysAllowForm({
  interrupt,
  action,
  onCancel,
  onDone,
}: {
  interrupt: InterruptResponse;
  action: ActionRequestResponse;
  onCancel: () => void;
  /** The approval and the rule are in; `from` had the focus when the form was sent. */
  onDone: (from: Element | null) => void;
}) {
  const args = action.args as Record<string, unknown>;
  const [choices, setChoices] = useState<Record<string, ArgChoice>>(() =>
    Object.fromEntries(
      Object.keys(args).map((k) => [
        k,
        NAMEABLE.test(k) ? ({ kind: 'exactly' } as ArgChoice) : ({ kind: 'any' } as ArgChoice),
      ]),
    ),
  );
  const [days, setDays] = useState('30');
  const built = useMemo(() => conditionsOf(args, choices), [args, choices]);
  const allow = useAlwaysAllow();
  const names = Object.keys(args);

  return (
    <form
      aria-label={`Always allow ${action.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!built.ok) return;
        const from = document.activeElement;
        // The approval replaces this form with the decision: callbacks given to mutate() would be
        // dropped with it.
        whenSettled(
          allow.mutateAsync({
            interruptId: interrupt.id,
            actionName: action.name,
            args: built.args,
            expiresInDays: Number(days),
          }),
          ({ rule }) => {
            notifications.show({
              color: 'teal',
              autoClose: 8_000,
              title: `Approved, and ${rule.name} created`,
              message: (
                <>
                  Argus approves the same from this key until{' '}
                  {new Date(rule.expiresAt ?? '').toLocaleDateString()}.{' '}
                  <Anchor href={`/settings/classification/${rule.id}`} size="sm">
                    See the rule
                  </Anchor>
                </>
              ),
            });
            onDone(from);
          },
        );
      }}
    >
      <Stack gap="xs">
        <Title order={3} size="h5">
          Always allow {action.name} from this key
        </Title>
        <Text size="sm" c="dimmed">
          Approves this action now, and creates a rule: argus approves the same action from the same
          key while the arguments below hold. A person’s rejection of a matching action pauses the
          rule.
        </Text>
        {names.length > 0 && (
          <Table aria-label="Argument conditions" data-keep-table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Argument</Table.Th>
                <Table.Th>Allow</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {names.map((name) => {
                const value = args[name];
                const choice = choices[name] ?? { kind: 'exactly' };
                const numeric = typeof value === 'number';
                const set = (c: ArgChoice) => setChoices((all) => ({ ...all, [name]: c }));
                return (
                  <Table.Tr key={name}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Code>{name}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="wrap">
                        <Select
                          aria-label={`Allow ${name}`}
                          value={choice.kind}
                          allowDeselect={false}
                          w={220}
                          data={[
                            ...(NAMEABLE.test(name)
                              ? [{ value: 'exactly', label: `exactly ${shortValue(value)}` }]
                              : []),
                            ...(numeric && NAMEABLE.test(name)
                              ? [
                                  { value: 'at_most', label: 'at most…' },
                                  { value: 'at_least', label: 'at least…' },
                                ]
                              : []),
                            { value: 'any', label: 'any value' },
                          ]}
                          onChange={(kind) =>
                            set(
                              kind === 'at_most' || kind === 'at_least'
                                ? { kind, bound: value as number }
                                : ({ kind } as ArgChoice),
                            )
                          }
                        />
                        {(choice.kind === 'at_most' || choice.kind === 'at_least') && (
                          <NumberInput
                            aria-label={`Bound for ${name}`}
                            value={choice.bound}
                            w={140}
                            onChange={(v) =>
                              set({ kind: choice.kind, bound: typeof v === 'number' ? v : NaN })
                            }
                          />
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        <Select
          label="For"
          value={days}
          onChange={(v) => setDays(v ?? '30')}
          allowDeselect={false}
          w={160}
          data={EXPIRY_DAYS.map((d) => ({ value: d, label: d === '1' ? '1 day' : `${d} days` }))}
        />
        {!built.ok && (
          <Text size="sm" c="orange" role="status">
            {built.problem}
          </Text>
        )}
        <FormError error={allow.error} />
        <Group gap="xs">
          <Button type="submit" color="teal" loading={allow.isPending} disabled={!built.ok}>
            Approve and always allow
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
