import type { AuditEntryResponse } from '@interlock/api-client';
import { TABLE_MIN_WIDTH } from '@/shared/utils/table-width';
import { Anchor, Button, Code, Paper, SimpleGrid, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { EmptyHint } from '@/shared/components/empty-hint';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { RelativeTime } from '@/shared/components/relative-time';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import { useUrlParams } from '@/shared/utils/use-url-params';
import { ArgusTerm } from '@/shared/components/argus-term';
import { filtersFromParams } from '../api/audit-filters';
import { exportUrl, useAuditLog } from '../api/audit-log.queries';
import { useActorChoices, useTargetChoices } from '../api/audit-names.queries';
import { AuditEntryDrawer } from '../components/audit-entry-drawer';
import {
  ChoiceFilter,
  NameFilter,
  TextFilter,
  TimeFilter,
} from '../components/audit-filter-fields';
import { LoadMore } from '@/shared/components/load-more';

/** The audit log: every filter of the API, word-prefix search, endless scroll, entry detail, CSV export. */
export function AuditLogRoute() {
  // The address last asked for, drawn at once: the router shows it as a transition, later.
  const { params, setParam: set, replaceParams } = useUrlParams();
  const filters = useMemo(() => filtersFromParams(params), [params]);

  // Clearing every filter starts the typed fields afresh too, in the click's own render (from the
  // cleared address), so nothing redraws them once the router catches up.
  const [generation, setGeneration] = useState(0);
  const actorChoices = useActorChoices(filters.actorType);
  const [targetSearch, setTargetSearch] = useState('');
  const [searchedTarget] = useDebouncedValue(targetSearch, 300);
  const target = useTargetChoices(filters.targetType, searchedTarget, filters.targetId);

  const log = useAuditLog(filters);
  const entries = useMemo(() => log.data?.pages.flatMap((p) => p.entries) ?? [], [log.data]);
  const canExport = useCan('auditLog.export');
  const [open, setOpen] = useState<AuditEntryResponse | null>(null);
  const filtered = Object.keys(filters).length > 0;
  const field = { filters, set };

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change anyone made in this organisation, newest first. Entries are never edited or removed."
        actions={
          canExport && (
            <Button component="a" href={exportUrl(filters)} download variant="default">
              Export CSV
            </Button>
          )
        }
      />
      <Paper withBorder p="md" mb="md">
        <SimpleGrid key={generation} cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
          <TextFilter
            name="q"
            label="Search"
            description="Word prefixes; every word must match"
            {...field}
          />
          <ChoiceFilter name="category" {...field} />
          <TextFilter name="action" label="Action" description="e.g. api_key.created" {...field} />
          <ChoiceFilter name="actorType" {...field} />
          <NameFilter
            name="actorId"
            label="Actor"
            idDescription="A member's or key's id"
            choices={actorChoices}
            {...field}
          />
          <ChoiceFilter name="targetType" {...field} />
          <NameFilter
            name="targetId"
            label="Target"
            idDescription="e.g. a session's id"
            choices={target.choices}
            search={
              target.search && {
                ...target.search,
                value: targetSearch,
                onChange: setTargetSearch,
              }
            }
            {...field}
          />
          <TimeFilter name="from" {...field} />
          <TimeFilter name="to" {...field} />
        </SimpleGrid>
        {filtered && (
          <Button
            variant="subtle"
            size="xs"
            mt="sm"
            onClick={() => {
              setGeneration((g) => g + 1);
              setTargetSearch('');
              replaceParams(new URLSearchParams());
            }}
          >
            Clear every filter
          </Button>
        )}
      </Paper>
      {log.isPending ? (
        <CenteredLoader label="Loading the audit log" />
      ) : log.isError ? (
        <QueryError error={log.error} onRetry={() => void log.refetch()} />
      ) : entries.length === 0 ? (
        <Paper withBorder p="lg">
          <EmptyHint title={filtered ? 'No entry matches these filters' : 'Nothing recorded yet'}>
            <Text size="sm" c="dimmed">
              {filtered
                ? 'Widen the time range, or clear a filter.'
                : 'Creating a key, opening or deciding an interrupt, inviting a member: each writes an entry here.'}
            </Text>
          </EmptyHint>
        </Paper>
      ) : (
        <Paper withBorder>
          <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH}>
            <Table verticalSpacing="xs" highlightOnHover aria-label="Audit entries">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">When</Table.Th>
                  <Table.Th scope="col">Action</Table.Th>
                  <Table.Th scope="col">Actor</Table.Th>
                  <Table.Th scope="col">Summary</Table.Th>
                  <Table.Th scope="col">
                    <span className="visually-hidden">Details</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((entry) => (
                  <Table.Tr key={entry.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <RelativeTime value={entry.createdAt} />
                    </Table.Td>
                    <Table.Td>
                      <Code>{entry.action}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{entry.actorName}</Text>
                      {entry.actorType === 'argus' ? (
                        // What argus is, where its entries appear (issue 31 §5).
                        <ArgusTerm data-argus-actor="">
                          <Text span size="xs" c="dimmed">
                            argus: your classification rules
                          </Text>
                        </ArgusTerm>
                      ) : (
                        <Text size="xs" c="dimmed">
                          {entry.actorType}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{entry.summary}</Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Anchor
                        component="button"
                        size="sm"
                        onClick={() => setOpen(entry)}
                        aria-label={`Details of ${entry.action} ${entry.summary}`}
                      >
                        Details
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <LoadMore query={log} rootMargin="600px" />
        </Paper>
      )}
      <AuditEntryDrawer entry={open} onClose={() => setOpen(null)} />
    </>
  );
}
