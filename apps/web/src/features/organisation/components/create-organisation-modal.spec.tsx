import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { renderWithApp } from '@/test/render';
import { CreateOrganisationModal } from './create-organisation-modal';

/** The header's organisation menu, as far as the dialog is concerned: a button that opens it. */
function Opener() {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpened(true)}>
        Create organisation…
      </button>
      <CreateOrganisationModal opened={opened} onClose={() => setOpened(false)} />
    </>
  );
}

// A closed Mantine Modal still renders its root (in a portal) and runs its hooks on every render
// of the page around it; the header holds this dialog on every page. (The app's modals provider
// keeps one closed Modal of its own: that one is always there.)
const modalRoots = () => document.querySelectorAll('.mantine-Modal-root').length;
const PROVIDERS_OWN = 1;

describe('CreateOrganisationModal', () => {
  it('is in the page only while open, and starts afresh when opened again', async () => {
    renderWithApp(<Opener />);
    await screen.findByRole('button', { name: 'Create organisation…' });
    expect(modalRoots()).toBe(PROVIDERS_OWN);

    await userEvent.click(screen.getByRole('button', { name: 'Create organisation…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create an organisation' });
    const name = screen.getByRole('textbox', { name: 'Organisation name' });
    await waitFor(() => expect(name).toHaveFocus());
    await userEvent.type(name, 'Staging');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    // Gone from the page once its closing transition has ended.
    await waitFor(() => expect(modalRoots()).toBe(PROVIDERS_OWN));

    await userEvent.click(screen.getByRole('button', { name: 'Create organisation…' }));
    expect(await screen.findByRole('textbox', { name: 'Organisation name' })).toHaveValue('');
  });
});
