import { createHash } from 'node:crypto';
import type { GranterCall, UserCall } from '../auth/caller';
import { userPrincipal } from '../auth/testing/principals';
import { DomainError, type MemberActor, type Permission } from '@interlock/domain';
import type { AppConfig } from '../config/app-config';
import type { SignInSessionService } from '../auth/sign-in-session.service';
import { fakeDataSource } from '../database/testing/fake-data-source';
import * as memberships from '../members/memberships.repository';
import type { NotificationOutbox } from '../notify/notification-outbox';
import type { OrganisationsRepository } from '../organisation/organisations.repository';
import type { RolesRepository } from '../roles/roles.repository';
import type { RolesService } from '../roles/roles.service';
import { fakeOf } from '../testing/fake-of';
import type { EmailVerificationService } from '../users/email-verification.service';
import * as users from '../users/users.repository';
import type { InvitationsRepository, PendingInvitationRow } from './invitations.repository';
import {
  INVITATION_FOR_ANOTHER_EMAIL,
  InvitationAcceptanceService,
  YOU_ARE_ALREADY_A_MEMBER,
} from './invitation-acceptance.service';
import { ALREADY_INVITED, ALREADY_MEMBER, InvitationsService } from './invitations.service';

// The function-style owners (memberships, users) and the account description are faked here;
// the password hash is a fixed stand-in (scrypt is deliberately slow).
jest.mock('../members/memberships.repository', () => ({
  beginMembership: jest.fn(),
  isCurrentMemberByEmail: jest.fn(),
}));
jest.mock('../users/users.repository', () => ({
  ...jest.requireActual('../users/users.repository'),
  insertUser: jest.fn(),
}));
jest.mock('../users/account.util', () => ({
  describeJoined: jest.fn(async (_db: unknown, userId: string, organisationId: string) => ({
    userId,
    organisationId,
  })),
}));
jest.mock('../auth/password.util', () => ({ hashPassword: jest.fn(async () => 'scrypt$hash') }));
const fakeMemberships = memberships as jest.Mocked<typeof memberships>;
const fakeUsers = users as jest.Mocked<typeof users>;

const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const ada: MemberActor = { type: 'member', id: 'u-ada', name: 'Ada Lovelace' };
const granter: GranterCall = {
  organisationId: ORG,
  actor: ada,
  permissions: new Set<Permission>(['member.invite', 'interrupt.read']),
  ip: null,
};
const TOKEN = 'A'.repeat(43);
/** A signed-in person's call on a route that acts for no organisation. */
const personCall = (userId: string, userName: string, email: string): UserCall => ({
  user: userPrincipal({ userId, userName, email }),
  ip: null,
});
const pending: PendingInvitationRow = {
  organisation_id: ORG,
  organisation_name: 'Acme',
  id: 'i-1',
  email: 'bob@example.com',
  role_id: 'r-dev',
  role_name: 'Developer',
  expires_at: new Date('2026-11-29T00:00:00.000Z'),
};

function setUp(overrides: Partial<Record<keyof InvitationsRepository, jest.Mock>> = {}) {
  const { dataSource, tx, audit } = fakeDataSource();
  const order: string[] = [];
  const invitations = fakeOf<InvitationsRepository>({
    list: jest.fn(async () => []),
    hasPending: jest.fn(async () => (order.push('pending?'), false)),
    insert: jest.fn(async () => void order.push('insert')),
    deletePending: jest.fn(async () => ({ email: 'bob@example.com', role_id: 'r-dev' })),
    findPendingByToken: jest.fn(async () => pending),
    markAccepted: jest.fn(async () => undefined),
    ...overrides,
  });
  const roles = fakeOf<RolesService>({
    findGrantable: jest.fn(
      async () => (
        order.push('role'),
        { id: 'r-dev', name: 'Developer', permissions: ['interrupt.read'], builtIn: 'developer' }
      ),
    ),
  });
  const roleRows = fakeOf<RolesRepository>({
    lock: jest.fn(async () => ({ id: 'r-dev', name: 'Developer' })),
  });
  const organisations = fakeOf<OrganisationsRepository>({
    lock: jest.fn(async () => void order.push('organisation')),
  });
  const signIns = fakeOf<SignInSessionService>({
    create: jest.fn(async () => ({ token: 'cookie-token', expiresAt: new Date(0) })),
  });
  const notifications = fakeOf<NotificationOutbox>({
    writeInvitation: jest.fn(async () => void order.push('email')),
  });
  const verification = fakeOf<EmailVerificationService>({
    newAccount: jest.fn(),
    assertVerified: jest.fn(async () => undefined),
  });
  const service = new InvitationsService(
    dataSource,
    invitations,
    roles,
    roleRows,
    organisations,
    notifications,
  );
  const acceptance = new InvitationAcceptanceService(
    dataSource,
    invitations,
    signIns,
    verification,
    {
      accounts: { passwordScryptLogN: 14 },
      apiKeyPepper: 'a pepper for the unit tests',
    } as AppConfig,
  );
  return {
    service,
    acceptance,
    verification,
    invitations,
    roles,
    roleRows,
    organisations,
    signIns,
    notifications,
    tx,
    audit,
    order,
  };
}

beforeEach(() => {
  jest.clearAllMocks();
  fakeMemberships.isCurrentMemberByEmail.mockResolvedValue(false);
  fakeMemberships.beginMembership.mockResolvedValue('joined');
  fakeUsers.insertUser.mockResolvedValue('u-bob');
});

describe('InvitationsService', () => {
  it('invites an address: role granted, organisation queued, checks, then the row and its entry; the token stored as its SHA-256', async () => {
    const { service, invitations, organisations, notifications, tx, audit, order } = setUp();
    const created = await service.create(
      { ...granter, ip: '203.0.113.7' },
      '  Bob@Example.com ',
      'r-dev',
    );
    expect(created.email).toBe('bob@example.com');
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(order).toEqual(['role', 'organisation', 'pending?', 'insert', 'email']);
    // The email is written in the invitation's transaction, with the link's token.
    expect(notifications.writeInvitation).toHaveBeenCalledWith(
      tx,
      ORG,
      expect.objectContaining({
        invitationId: created.id,
        email: 'bob@example.com',
        token: created.token,
        inviterName: ada.name,
        roleName: 'Developer',
      }),
    );
    expect(organisations.lock).toHaveBeenCalledWith(tx, ORG, 'FOR NO KEY UPDATE');
    expect(invitations.insert).toHaveBeenCalledWith(
      tx,
      ORG,
      expect.objectContaining({
        email: 'bob@example.com',
        roleId: 'r-dev',
        invitedBy: ada.id,
        tokenHash: createHash('sha256').update(created.token).digest('hex'),
      }),
    );
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'member.invited',
        actor: ada,
        target: { type: 'invitation', id: created.id, name: 'bob@example.com' },
      }),
    ]);
  });

  it("answers 409 for the organisation's current member or a pending invitation, writing nothing", async () => {
    fakeMemberships.isCurrentMemberByEmail.mockResolvedValue(true);
    const member = setUp();
    await expect(member.service.create(granter, 'bob@example.com', 'r-dev')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: ALREADY_MEMBER,
    });
    fakeMemberships.isCurrentMemberByEmail.mockResolvedValue(false);
    const invited = setUp({ hasPending: jest.fn(async () => true) });
    await expect(invited.service.create(granter, 'bob@example.com', 'r-dev')).rejects.toMatchObject(
      { code: 'CONFLICT', message: ALREADY_INVITED },
    );
    for (const s of [member, invited]) {
      expect(s.invitations.insert).not.toHaveBeenCalled();
      expect(s.audit).toEqual([]);
    }
  });

  it("withdraws a pending invitation with its role's name in the entry; 404 when none is pending", async () => {
    const { service, roleRows, tx, audit } = setUp();
    await service.withdraw({ organisationId: ORG, actor: ada, ip: null }, 'i-1');
    expect(roleRows.lock).toHaveBeenCalledWith(tx, ORG, 'r-dev', 'FOR KEY SHARE');
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'member.invitation_deleted',
        metadata: {
          email: 'bob@example.com',
          roleId: 'r-dev',
          role: 'Developer',
          state: 'pending',
          reason: 'withdrawn',
        },
      }),
    ]);
    const none = setUp({ deletePending: jest.fn(async () => undefined) });
    const error = await none.service
      .withdraw({ organisationId: ORG, actor: ada, ip: null }, 'i-9')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(none.audit).toEqual([]);
  });
});

describe('InvitationAcceptanceService', () => {
  it('answers 404 for a malformed token without looking it up', async () => {
    const { acceptance, invitations } = setUp();
    await expect(acceptance.preview('short')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(acceptance.accept('short', 'Bob', 'password1', null)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(invitations.findPendingByToken).not.toHaveBeenCalled();
  });

  it('accepts with a new account: user, membership, invitation used, member.joined, a sign-in session', async () => {
    const { acceptance, invitations, signIns, tx, audit } = setUp();
    const signedIn = await acceptance.accept(TOKEN, 'Bob', 'password1', '203.0.113.7');
    expect(invitations.findPendingByToken).toHaveBeenLastCalledWith(
      tx,
      createHash('sha256').update(TOKEN).digest('hex'),
      true,
    );
    expect(fakeUsers.insertUser).toHaveBeenCalledWith(
      tx,
      { email: 'bob@example.com', name: 'Bob', passwordHash: 'scrypt$hash' },
      expect.any(Function),
    );
    expect(fakeMemberships.beginMembership).toHaveBeenCalledWith(tx, ORG, 'u-bob', 'r-dev');
    expect(invitations.markAccepted).toHaveBeenCalledWith(tx, ORG, 'i-1');
    expect(signIns.create).toHaveBeenCalledWith(tx, 'u-bob');
    expect(signedIn).toMatchObject({
      token: 'cookie-token',
      body: { userId: 'u-bob', organisationId: ORG },
    });
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'member.joined',
        actor: { type: 'member', id: 'u-bob', name: 'Bob' },
        metadata: {
          invitationId: 'i-1',
          email: 'bob@example.com',
          roleId: 'r-dev',
          role: 'Developer',
        },
      }),
    ]);
  });

  it('answers 404 for an unknown or used token before hashing the password', async () => {
    const { acceptance, signIns, audit } = setUp({
      findPendingByToken: jest.fn(async () => undefined),
    });
    await expect(acceptance.accept(TOKEN, 'Bob', 'password1', null)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(jest.requireMock('../auth/password.util').hashPassword).not.toHaveBeenCalled();
    expect(fakeUsers.insertUser).not.toHaveBeenCalled();
    expect(signIns.create).not.toHaveBeenCalled();
    expect(audit).toEqual([]);
  });

  it('joins a signed-in person to the invitation sent to their address; 403 for another address, 409 for a member', async () => {
    fakeMemberships.beginMembership.mockResolvedValue('rejoined');
    const { acceptance, audit } = setUp();
    await acceptance.join(personCall('u-bob', 'Bob', 'bob@example.com'), TOKEN);
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'member.joined',
        metadata: expect.objectContaining({ rejoined: true }),
      }),
    ]);

    const other = setUp();
    await expect(
      other.acceptance.join(personCall('u-eve', 'Eve', 'eve@example.com'), TOKEN),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: INVITATION_FOR_ANOTHER_EMAIL,
    });
    fakeMemberships.beginMembership.mockResolvedValue('already');
    const already = setUp();
    await expect(
      already.acceptance.join(personCall('u-bob', 'Bob', 'bob@example.com'), TOKEN),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: YOU_ARE_ALREADY_A_MEMBER,
    });
    for (const s of [other, already]) {
      expect(s.invitations.markAccepted).not.toHaveBeenCalled();
      expect(s.audit).toEqual([]);
    }
  });
});
