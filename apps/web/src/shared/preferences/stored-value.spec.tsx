import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useShortcutsEnabled } from './preferences';
import { useStoredValue } from './stored-value';

function Toggle({ label }: { label: string }) {
  const [on, setOn] = useShortcutsEnabled();
  return (
    <button type="button" onClick={() => setOn(!on)}>
      {label}: {on ? 'on' : 'off'}
    </button>
  );
}

function Count() {
  const [n] = useStoredValue('interlock.test.count', 7);
  return <output>{n}</output>;
}

describe('useStoredValue', () => {
  beforeEach(() => localStorage.clear());

  it('reads without writing: nothing is stored until the value is set', () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    render(<Toggle label="a" />);
    expect(screen.getByRole('button')).toHaveTextContent('a: on');
    expect(setItem).not.toHaveBeenCalled();
    expect(localStorage.length).toBe(0);
    setItem.mockRestore();
  });

  it('keeps a choice stored earlier (JSON, as before) and shares a change with every reader', async () => {
    localStorage.setItem('interlock.shortcuts', 'false');
    render(
      <>
        <Toggle label="a" />
        <Toggle label="b" />
      </>,
    );
    expect(screen.getByRole('button', { name: 'a: off' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'a: off' }));
    expect(screen.getByRole('button', { name: 'b: on' })).toBeInTheDocument();
    expect(localStorage.getItem('interlock.shortcuts')).toBe('true');
  });

  it('follows another tab, and takes a stored value of the wrong type as absent', () => {
    localStorage.setItem('interlock.test.count', '"seven"');
    render(<Count />);
    expect(screen.getByRole('status')).toHaveTextContent('7');
    act(() => {
      localStorage.setItem('interlock.test.count', '12');
      window.dispatchEvent(new StorageEvent('storage', { key: 'interlock.test.count' }));
    });
    expect(screen.getByRole('status')).toHaveTextContent('12');
  });
});
