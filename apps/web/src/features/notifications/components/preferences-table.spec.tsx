import { NOTIFICATION_KINDS } from '@interlock/domain';
import { screen } from '@testing-library/react';
import { renderWithApp } from '@/test/render';
import { KINDS, PreferencesTable } from './preferences-table';

describe('PreferencesTable', () => {
  it('has a row for every kind the service notifies of, in its order', () => {
    expect(KINDS.map((k) => k.kind)).toEqual([...NOTIFICATION_KINDS]);
  });

  it("shows the deadline-coming row with each channel's fallback", async () => {
    renderWithApp(
      <PreferencesTable
        value={{}}
        fallback={{ 'interrupt.deadline_approaching': { email: 'immediately', browser: 'off' } }}
        onChange={() => undefined}
        fallbackLabel="Default"
      />,
    );
    expect(await screen.findByText('Deadline coming')).toBeInTheDocument();
    expect(
      screen.getByText('An interrupt that waits for you will soon be decided by its deadline'),
    ).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Deadline coming: email' })).toHaveValue(
      'Default (Immediately)',
    );
    expect(screen.getByRole('combobox', { name: 'Deadline coming: browser' })).toHaveValue(
      'Default (Off)',
    );
  });
});
