import { Tooltip, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import { ARGUS_IN_WORDS } from '@/shared/utils/argus-in-words';

/**
 * "argus" where it appears, with what argus is in a tooltip that a pointer, a finger and the
 * keyboard all reach (a `title` attribute reaches the mouse alone): the trigger is a button in the
 * tab order, and the tooltip opens on focus and describes it (`aria-describedby`) while open.
 */
export function ArgusTerm({
  children,
  lead = '',
  ...rest
}: {
  children: ReactNode;
  /** Said before the sentence, e.g. "Decided automatically by argus." */
  lead?: string;
} & Record<`data-${string}`, string>) {
  return (
    <Tooltip
      label={lead === '' ? ARGUS_IN_WORDS : `${lead} ${ARGUS_IN_WORDS}`}
      multiline
      w={320}
      events={{ hover: true, focus: true, touch: true }}
    >
      <UnstyledButton type="button" {...rest} style={{ cursor: 'help' }}>
        {children}
      </UnstyledButton>
    </Tooltip>
  );
}
