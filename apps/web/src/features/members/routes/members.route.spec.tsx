import type { MemberResponse } from '@interlock/api-client';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { aSignInSession } from '@/test/fixtures';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { useSignInSession } from '@/shared/sign-in/sign-in-session.queries';
import { MembersRoute } from './members.route';

/** The page as the signed-in layout shows it: once the session is known. */
function SignedIn() {
  return useSignInSession().data ? <MembersRoute /> : null;
}

const member = (n: number, name: string): MemberResponse => ({
  id: `5f0e7c1e-9999-4c1e-9a4e-0a0a0a0a0a0${n}`,
  name,
  email: `${name.split(' ')[0].toLowerCase()}@example.com`,
  roleId: 'developer',
  roleName: 'Developer',
  createdAt: '2026-11-26T18:00:00.000Z',
});

describe('MembersRoute', () => {
  it('a confirmed removal gives the focus to the next row’s Remove button (the one before when the last row left), not the page’s body', async () => {
    const ada = aSignInSession(['member.manage']);
    let members = [
      { ...member(1, ada.member.name), id: ada.member.id },
      member(2, 'Grace Hopper'),
      member(3, 'Linus Torvalds'),
    ];
    const removed: unknown[] = [];
    server.use(
      http.get(`${API}/auth/session`, () => HttpResponse.json(ada)),
      http.get(`${API}/members`, () => HttpResponse.json({ members })),
      http.get(`${API}/teams`, () => HttpResponse.json({ teams: [] })),
      http.delete(`${API}/members/:id`, ({ params }) => {
        removed.push(params.id);
        members = members.filter((m) => m.id !== params.id);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderWithApp(<SignedIn />, { path: '/settings/members' });
    const remove = async (name: string) => {
      await userEvent.click(await screen.findByRole('button', { name: `Remove ${name}` }));
      await userEvent.click(await screen.findByRole('button', { name: 'Remove member' }));
      await waitFor(() =>
        expect(screen.queryByRole('button', { name: `Remove ${name}` })).toBeNull(),
      );
    };
    await remove('Grace Hopper');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Remove Linus Torvalds' })).toHaveFocus(),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Remove Linus Torvalds' })).toHaveFocus();
    // The last row: the one before it.
    await remove('Linus Torvalds');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Remove Ada Lovelace' })).toHaveFocus(),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Remove Ada Lovelace' })).toHaveFocus();
    expect(removed).toEqual([member(2, 'Grace Hopper').id, member(3, 'Linus Torvalds').id]);
  });
});
