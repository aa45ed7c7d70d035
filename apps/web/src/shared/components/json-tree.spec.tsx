import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '@/test/render';
import { JsonTree } from './json-tree';

const ARGS = {
  path: `/var/${'q'.repeat(400)}`,
  rows: Array.from({ length: 30 }, (_, i) => ({ id: i, note: `row ${i}` })),
  dryRun: false,
};

describe('JsonTree', () => {
  it('folds, searches by key or value, and cuts long text until asked', async () => {
    renderWithApp(<JsonTree value={ARGS} label="Arguments of deploy" />);
    const tree = screen.getByRole('tree', { name: 'Arguments of deploy' });
    // Long strings are cut, with what was left out said.
    expect(within(tree).getByText(/\(165 more characters\)/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show long text in full' }));
    expect(within(tree).getByText(`"/var/${'q'.repeat(400)}"`)).toBeInTheDocument();

    // Search keeps what matches, and says how much.
    await userEvent.type(screen.getByLabelText('Search arguments of deploy'), 'row 17');
    expect(await screen.findByText('1 match for “row 17”.')).toBeInTheDocument();
    expect(within(tree).getByText('"[17]":')).toBeInTheDocument();
    expect(within(tree).queryByText('"row 16"')).toBeNull();
    expect(within(tree).queryByText('"dryRun":')).toBeNull();

    await userEvent.clear(screen.getByLabelText('Search arguments of deploy'));
    await userEvent.type(screen.getByLabelText('Search arguments of deploy'), 'nothing-here');
    expect(
      await screen.findByText('Nothing in arguments of deploy matches “nothing-here”.'),
    ).toBeInTheDocument();
  });

  it('folds a branch with its toggle', async () => {
    renderWithApp(<JsonTree value={{ outer: { inner: { deep: 1 } } }} label="Metadata" />);
    const tree = screen.getByRole('tree', { name: 'Metadata' });
    // Two levels open at first: the third is folded.
    expect(within(tree).queryByText('"deep":')).toBeNull();
    const toggles = within(tree).getAllByRole('button', { name: 'Expand' });
    await userEvent.click(toggles[toggles.length - 1]);
    expect(within(tree).getByText('"deep":')).toBeInTheDocument();
  });
});
