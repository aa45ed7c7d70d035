import type { MemberResponse, TeamResponse } from '@interlock/api-client';
import {
  Button,
  CloseButton,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { confirmAction } from '@/shared/components/confirm';
import { FormError } from '@/shared/components/form-error';
import { notifyError, notifySuccess } from '@/shared/utils/notify';
import {
  useAddTeamMember,
  useDeleteTeam,
  useRemoveTeamMember,
  useRenameTeam,
} from '../api/teams.queries';
import { whenSettled } from '@/shared/utils/when-settled';
import { FormActions } from '@/shared/components/form-actions';

export function TeamCard({
  team,
  members,
}: {
  team: TeamResponse;
  members: MemberResponse[] | undefined;
}) {
  const add = useAddTeamMember();
  const removeMember = useRemoveTeamMember();
  const [renaming, setRenaming] = useState(false);
  const remove = useDeleteTeam();
  const confirmDelete = () =>
    confirmAction({
      title: 'Delete this team?',
      body: (
        <Text size="sm">
          The team <strong>{team.name}</strong> will be deleted. Its members stay in the
          organisation.
        </Text>
      ),
      confirmLabel: 'Delete team',
      onConfirm: async () => {
        await remove.mutateAsync(team.id);
        notifySuccess(`Team ${team.name} deleted`);
      },
    });
  const [adding, setAdding] = useState<string | null>(null);
  const byId = new Map(members?.map((m) => [m.id, m]));
  const candidates = members?.filter((m) => !team.memberIds.includes(m.id)) ?? [];

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h4" miw={0}>
            {team.name}
          </Title>
          <Group gap="xs" wrap="nowrap">
            <Button
              size="xs"
              variant="default"
              onClick={() => setRenaming(true)}
              aria-label={`Rename team ${team.name}`}
            >
              Rename
            </Button>
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={confirmDelete}
              aria-label={`Delete team ${team.name}`}
            >
              Delete
            </Button>
          </Group>
        </Group>
        {team.memberIds.length === 0 ? (
          <Text size="sm" c="dimmed">
            No members yet. Add the people who should receive this team&apos;s interrupts.
          </Text>
        ) : (
          <Stack
            gap={4}
            component="ul"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
            aria-label={`Members of ${team.name}`}
          >
            {team.memberIds.map((id) => (
              <Group key={id} component="li" justify="space-between" wrap="nowrap">
                <Text size="sm">{byId.get(id)?.name ?? 'A member'}</Text>
                <CloseButton
                  size="sm"
                  aria-label={`Remove ${byId.get(id)?.name ?? 'member'} from ${team.name}`}
                  onClick={() =>
                    whenSettled(
                      removeMember.mutateAsync({ teamId: team.id, memberId: id }),
                      () => undefined,
                      (error) => notifyError(error, 'Could not remove the member'),
                    )
                  }
                />
              </Group>
            ))}
          </Stack>
        )}
        {members !== undefined && candidates.length > 0 && (
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <Select
              label={`Add a member to ${team.name}`}
              placeholder="Choose a member"
              data={candidates.map((m) => ({ value: m.id, label: `${m.name} (${m.email})` }))}
              value={adding}
              onChange={setAdding}
              searchable
              miw={0}
              style={{ flex: 1 }}
            />
            <Button
              disabled={adding === null}
              loading={add.isPending}
              aria-label={`Add to ${team.name}`}
              onClick={() =>
                adding &&
                whenSettled(
                  add.mutateAsync({ teamId: team.id, memberId: adding }),
                  () => setAdding(null),
                  (error) => notifyError(error, 'Could not add the member'),
                )
              }
            >
              Add
            </Button>
          </Group>
        )}
      </Stack>
      <RenameTeamModal team={team} opened={renaming} onClose={() => setRenaming(false)} />
    </Paper>
  );
}

function RenameTeamModal({
  team,
  opened,
  onClose,
}: {
  team: TeamResponse;
  opened: boolean;
  onClose: () => void;
}) {
  const rename = useRenameTeam();
  const [name, setName] = useState(team.name);
  useEffect(() => {
    if (opened) setName(team.name);
  }, [opened, team.name]);
  const close = () => {
    rename.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={`Rename team ${team.name}`}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          whenSettled(rename.mutateAsync({ id: team.id, name: name.trim() }), () => close());
        }}
      >
        <Stack>
          <TextInput
            label="Team name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={50}
            required
            data-autofocus
          />
          <FormError error={rename.error} />
          <FormActions onCancel={close} pending={rename.isPending} submitLabel="Save" />
        </Stack>
      </form>
    </Modal>
  );
}
