import { Table, type MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';
import { TABLE_MIN_WIDTH } from '@/shared/utils/table-width';

/**
 * A column heading: its text; `{ hidden }` for a column whose heading only a screen reader
 * reads (the row's actions); `false` for a column left out.
 */
export type ListTableColumn = string | { hidden: string } | false;

/**
 * A list of rows as a table that scrolls inside itself when narrow (phones see it as a list,
 * app.css): the headings as `columns` say, the rows (`Table.Tr`) as children.
 */
export function ListTable({
  label,
  columns,
  minWidth = TABLE_MIN_WIDTH,
  verticalSpacing = 'sm',
  highlightOnHover = false,
  children,
}: {
  label: string;
  columns: ListTableColumn[];
  minWidth?: number;
  verticalSpacing?: MantineSpacing;
  highlightOnHover?: boolean;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table
        verticalSpacing={verticalSpacing}
        highlightOnHover={highlightOnHover}
        aria-label={label}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) =>
              column === false ? null : typeof column === 'string' ? (
                <Table.Th scope="col" key={column}>
                  {column}
                </Table.Th>
              ) : (
                <Table.Th scope="col" key={column.hidden}>
                  <span className="visually-hidden">{column.hidden}</span>
                </Table.Th>
              ),
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
