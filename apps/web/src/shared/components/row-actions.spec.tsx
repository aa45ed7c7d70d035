import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '@/test/render';
import { RowActions } from './row-actions';

describe('RowActions', () => {
  it('offers the actions given, named for the row, and runs the one clicked', async () => {
    const rename = vi.fn();
    const revoke = vi.fn();
    renderWithApp(
      <RowActions
        of="ci-key"
        actions={[
          { label: 'Rename', onClick: rename },
          false,
          { label: 'Revoke', onClick: revoke, danger: true },
        ]}
      />,
    );
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Rename ci-key',
      'Revoke ci-key',
    ]);
    expect(within(buttons[1]).getByText('Revoke')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Revoke ci-key' }));
    expect(revoke).toHaveBeenCalledTimes(1);
    expect(rename).not.toHaveBeenCalled();
  });

  it('draws nothing when no action is offered', () => {
    renderWithApp(
      <div data-testid="cell">
        <RowActions of="Owner" actions={[false, false]} />
      </div>,
    );
    expect(screen.getByTestId('cell')).toBeEmptyDOMElement();
  });
});
