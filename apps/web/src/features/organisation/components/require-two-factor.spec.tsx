import type { RoleResponse, SignInSessionResponse } from '@interlock/api-client';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { PERMISSIONS } from '@interlock/domain';
import { aSignInSession } from '@/test/fixtures';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { RequireTwoFactor } from './require-two-factor';

const ROLE_ID = '5f0e7c1e-cccc-4c1e-9a4e-0a0a0a0a0a03';

/** Signed in with every permission, in a role that is the built-in Owner's or a custom one. */
function signedInAs(builtIn: RoleResponse['builtIn'] | null) {
  const session: SignInSessionResponse = {
    ...aSignInSession([...PERMISSIONS]),
    member: { ...aSignInSession().member, roleId: ROLE_ID, roleName: 'Admins' },
  };
  const role = {
    id: ROLE_ID,
    name: builtIn === 'owner' ? 'Owner' : 'Admins',
    builtIn,
    permissions: [...PERMISSIONS],
    createdAt: '2026-11-01T00:00:00.000Z',
  } as RoleResponse;
  server.use(
    http.get(`${API}/auth/session`, () => HttpResponse.json(session)),
    http.get(`${API}/roles`, () => HttpResponse.json({ roles: [role] })),
    http.get(`${API}/organisation/two-factor-requirement`, () =>
      HttpResponse.json({ requireTwoFactor: false }),
    ),
  );
}

describe('RequireTwoFactor', () => {
  it('offers the switch to an Owner', async () => {
    signedInAs('owner');
    renderWithApp(<RequireTwoFactor />);
    // Its label wraps the description too: the accessible name starts with the label.
    expect(
      await screen.findByRole('switch', { name: /^Require two-factor sign-in for members/ }),
    ).toBeInTheDocument();
  });

  it('does not offer it to a custom role holding every permission (only an Owner may move it)', async () => {
    signedInAs(null);
    const { queryClient } = renderWithApp(<RequireTwoFactor />);
    await waitFor(() => expect(queryClient.getQueryData(['roles'])).toBeTruthy());
    expect(await screen.findByText('Two-factor sign-in is up to each member.')).toBeInTheDocument();
    expect(screen.queryByRole('switch')).toBeNull();
  });
});
