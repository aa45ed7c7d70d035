import { EmptyState } from '@mantine/core';
import type { ReactNode, Ref } from 'react';

/**
 * An empty list that says what to do next. With `headingRef` its title is a heading (h2) that can
 * take the focus: where a list's last row left with the focus (the inbox after a decision).
 */
export function EmptyHint({
  title,
  headingRef,
  children,
}: {
  title: string;
  headingRef?: Ref<HTMLHeadingElement>;
  children?: ReactNode;
}) {
  return (
    <EmptyState title={headingRef ? undefined : title} py="xl" size="sm">
      {headingRef && (
        <EmptyState.Title order={2} tabIndex={-1} ref={headingRef}>
          {title}
        </EmptyState.Title>
      )}
      {children}
    </EmptyState>
  );
}
