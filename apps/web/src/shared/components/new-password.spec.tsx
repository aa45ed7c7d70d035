import { Button } from '@mantine/core';
import { useForm } from '@mantine/form';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '@/test/render';
import { NewPasswordFields, newPasswordError, repeatedPasswordError } from './new-password';

/** A form as the pages build one: the block, validated by its rules. */
function ChangeForm({ onSave }: { onSave: (password: string) => void }) {
  const form = useForm({
    initialValues: { password: '', repeat: '' },
    validate: {
      password: newPasswordError,
      repeat: (v, values) => repeatedPasswordError(v, values.password),
    },
  });
  return (
    <form onSubmit={form.onSubmit((values) => onSave(values.password))}>
      <NewPasswordFields
        label="New password"
        description="Setting it signs you out everywhere."
        password={form.getInputProps('password')}
        repeat={form.getInputProps('repeat')}
      />
      <Button type="submit">Save</Button>
    </form>
  );
}

describe('NewPasswordFields', () => {
  it('holds the 8–200 rule', () => {
    expect(newPasswordError('1234567')).toBe('Use at least 8 characters');
    expect(newPasswordError('12345678')).toBeNull();
    expect(newPasswordError('x'.repeat(200))).toBeNull();
    expect(newPasswordError('x'.repeat(201))).toBe('Use at most 200 characters');
    expect(repeatedPasswordError('abc', 'abd')).toBe('The two passwords differ');
  });

  it('says the rule, asks again, and submits only a password that meets it, twice alike', async () => {
    const saved: string[] = [];
    renderWithApp(<ChangeForm onSave={(p) => saved.push(p)} />);
    expect(
      screen.getByText('8 to 200 characters. Setting it signs you out everywhere.'),
    ).toBeInTheDocument();
    // (A password input has no ARIA role: found by its label, whose "*" marks it required.)
    const password = screen.getByLabelText(/^New password\W*$/);
    const again = screen.getByLabelText(/^New password again\W*$/);
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(again).toHaveAttribute('autocomplete', 'new-password');

    // (Both are filled: the browser's own check stops a form with an empty required field.)
    await userEvent.type(password, 'short');
    await userEvent.type(again, 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Use at least 8 characters')).toBeInTheDocument();

    await userEvent.type(password, ' but long now');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The two passwords differ')).toBeInTheDocument();
    expect(saved).toEqual([]);

    await userEvent.clear(again);
    await userEvent.paste('short but long now');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(saved).toEqual(['short but long now']);
  });
});
