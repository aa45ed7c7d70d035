import { Alert, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useEffect, useId, useState } from 'react';
import { PageHeader } from '@/shared/components/page-header';
import { useTeams } from '@/shared/directory/directory.queries';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import { EscalationPolicyEditor } from '../components/escalation-policy-editor';

/**
 * Settings → Escalation (SPEC §8e): the organisation's escalation policy and each team's — after
 * how long an open interrupt's assignee is reminded, and when it escalates, to whom. Every member
 * reads them; members with team.manage change them (as the API allows).
 */
export function EscalationSettingsRoute() {
  const canManage = useCan('team.manage');
  // Who may list members and teams (the API's rule): the names the steps assign to.
  const canAssign = useCan('interrupt.assign');
  const canManageMembers = useCan('member.manage');
  const canListTeams = canManage || canAssign;
  const canListDirectory = canListTeams || canManageMembers;
  const teams = useTeams({ enabled: canListTeams });
  const [teamId, setTeamId] = useState<string | null>(null);
  const teamsHeadingId = useId();
  const team = teams.data?.find((t) => t.id === teamId);

  useEffect(() => {
    // The first team by default; another when the chosen one is deleted.
    if (teams.data && teams.data.length > 0 && team === undefined) setTeamId(teams.data[0].id);
  }, [teams.data, team]);

  return (
    <>
      <PageHeader
        title="Escalation"
        description="Reminders and escalations of interrupts that wait too long. At each step's time, if the interrupt is still open, Interlock reminds its assignee or escalates it (and may hand it to a member or team), as actor system; each step shows on the interrupt's page."
      />
      <Stack gap="lg" maw={960}>
        {!canManage && (
          <Alert variant="light" title="Read only">
            Changing escalation policies takes the team.manage permission (steps hand interrupts to
            members and teams, so the people who arrange the teams set them).
          </Alert>
        )}
        <EscalationPolicyEditor canManage={canManage} canListDirectory={canListDirectory} />
        <Paper withBorder p="lg" component="section" aria-labelledby={teamsHeadingId}>
          <Stack gap="md">
            <Stack gap={4}>
              <Title order={2} size="h4" id={teamsHeadingId}>
                Team policies
              </Title>
              <Text size="sm" c="dimmed">
                A team may have a policy of its own for the interrupts assigned to it.
              </Text>
            </Stack>
            {!canListTeams ? (
              <Text size="sm">
                Seeing the teams takes the team.manage or interrupt.assign permission.
              </Text>
            ) : teams.data !== undefined && teams.data.length === 0 ? (
              <Text size="sm">No teams yet: create one under Teams to give it a policy.</Text>
            ) : (
              <Select
                label="Team"
                data={(teams.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
                value={team?.id ?? null}
                allowDeselect={false}
                searchable
                onChange={setTeamId}
                maw={360}
              />
            )}
          </Stack>
        </Paper>
        {team !== undefined && (
          <EscalationPolicyEditor
            key={team.id}
            team={team}
            canManage={canManage}
            canListDirectory={canListDirectory}
          />
        )}
      </Stack>
    </>
  );
}
