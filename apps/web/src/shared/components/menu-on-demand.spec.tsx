import { Menu, UnstyledButton } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '@/test/render';
import { MenuOnDemand } from './menu-on-demand';

function AccountMenu({ onProfile }: { onProfile: () => void }) {
  return (
    <MenuOnDemand withinPortal target={<UnstyledButton>Account</UnstyledButton>}>
      <Menu.Item onClick={onProfile}>Profile</Menu.Item>
      <Menu.Item>Sign out</Menu.Item>
    </MenuOnDemand>
  );
}

describe('MenuOnDemand', () => {
  it('is only its button until opened, then a menu that gives the focus back on close', async () => {
    const profile = vi.fn();
    renderWithApp(<AccountMenu onProfile={profile} />);
    const button = screen.getByRole('button', { name: 'Account' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    // No Menu yet: no dropdown, and no portal node for one.
    expect(document.querySelector('[data-portal]')).toBeNull();

    await userEvent.click(button);
    expect(await screen.findByRole('menu')).toBeVisible();
    const target = screen.getByRole('button', { name: 'Account' });
    expect(target).toHaveAttribute('aria-expanded', 'true');

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Account' })).toHaveFocus());

    // Opened again, it is Mantine's Menu as ever: an item runs and closes it.
    await userEvent.click(screen.getByRole('button', { name: 'Account' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Profile' }));
    expect(profile).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  });
});
