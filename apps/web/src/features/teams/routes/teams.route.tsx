import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { EmptyHint } from '@/shared/components/empty-hint';
import { FormError } from '@/shared/components/form-error';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { useMembers, useTeams } from '@/shared/directory/directory.queries';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import { useCreateTeam } from '../api/teams.queries';
import { TeamCard } from '../components/team-card';
import { whenSettled } from '@/shared/utils/when-settled';

export function TeamsRoute() {
  const teams = useTeams();
  const canListMembers = useCan('member.manage');
  const members = useMembers({ enabled: canListMembers });
  const create = useCreateTeam();
  const [name, setName] = useState('');
  return (
    <>
      <PageHeader
        title="Teams"
        description="Teams group members so an interrupt can be assigned to a whole team."
      />
      <Stack>
        <Paper withBorder p="md">
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (name.trim() === '') return;
              whenSettled(create.mutateAsync(name.trim()), () => setName(''));
            }}
          >
            <Group align="flex-end">
              <TextInput
                label="New team name"
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                maxLength={50}
                required
                w={280}
              />
              <Button type="submit" loading={create.isPending}>
                Create team
              </Button>
            </Group>
          </form>
          <FormError error={create.error} />
        </Paper>
        {teams.isPending ? (
          <CenteredLoader label="Loading teams" />
        ) : teams.isError ? (
          <QueryError error={teams.error} onRetry={() => void teams.refetch()} />
        ) : teams.data.length === 0 ? (
          <EmptyHint title="No teams yet">
            <Text size="sm" c="dimmed">
              Create a team above (for example “Payments”), then add its members.
            </Text>
          </EmptyHint>
        ) : (
          <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
            {teams.data.map((team) => (
              <TeamCard key={team.id} team={team} members={members.data} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </>
  );
}
