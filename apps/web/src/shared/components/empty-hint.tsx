import { EmptyState } from '@mantine/core';
import type { ReactNode } from 'react';

/** An empty list that says what to do next. */
export function EmptyHint({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <EmptyState title={title} py="xl" size="sm">
      {children}
    </EmptyState>
  );
}
