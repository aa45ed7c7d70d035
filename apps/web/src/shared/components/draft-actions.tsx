import { Button, Group } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';

/**
 * A settings form edited as a draft of what the server holds: the draft starts as `toDraft` of
 * the saved value once it has loaded, and starts again whenever the saved value changes (after a
 * save, or a change from elsewhere). `null` until the saved value is there.
 */
export function useDraft<Saved, Draft>(
  saved: Saved | undefined,
  toDraft: (saved: Saved) => Draft,
): [Draft | null, (draft: Draft) => void] {
  const [draft, setDraft] = useState<Draft | null>(null);
  useEffect(() => {
    if (saved !== undefined) setDraft(toDraft(saved));
    // toDraft is a pure mapping: only a new saved value starts the draft again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [saved]);
  return [draft, setDraft];
}

/**
 * A draft form's foot: what else the form offers (`children`, e.g. "Add step"), Save — only when
 * something changed and the draft is valid, busy while the request runs — and "Discard changes",
 * back to what is saved. The form's own `onSubmit` saves, so Enter in a field saves too.
 */
export function DraftActions({
  saveLabel,
  changed,
  invalid = false,
  saving,
  onDiscard,
  children,
}: {
  saveLabel: ReactNode;
  changed: boolean;
  invalid?: boolean;
  saving: boolean;
  onDiscard: () => void;
  children?: ReactNode;
}) {
  return (
    <Group gap="sm">
      {children}
      <Button type="submit" disabled={!changed || invalid} loading={saving}>
        {saveLabel}
      </Button>
      <Button variant="default" disabled={!changed} onClick={onDiscard}>
        Discard changes
      </Button>
    </Group>
  );
}
