import { Table } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import { renderWithApp } from '@/test/render';
import { ListTable } from './list-table';

describe('ListTable', () => {
  it('names the table and heads its columns, an actions column for screen readers only', () => {
    renderWithApp(
      <ListTable label="Keys" columns={['Name', false, { hidden: 'Actions' }]}>
        <Table.Tr>
          <Table.Td>ci</Table.Td>
          <Table.Td>
            <button type="button">Revoke</button>
          </Table.Td>
        </Table.Tr>
      </ListTable>,
    );
    const table = screen.getByRole('table', { name: 'Keys' });
    const headings = within(table).getAllByRole('columnheader');
    expect(headings.map((h) => h.textContent)).toEqual(['Name', 'Actions']);
    expect(headings.every((h) => h.getAttribute('scope') === 'col')).toBe(true);
    expect(within(headings[1]).getByText('Actions')).toHaveClass('visually-hidden');
    expect(within(table).getByRole('cell', { name: 'ci' })).toBeInTheDocument();
  });
});
