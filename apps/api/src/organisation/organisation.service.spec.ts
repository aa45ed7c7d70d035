import { BUILT_IN_ROLES, type MemberActor } from '@interlock/domain';
import type { MemberCall, UserCall } from '../auth/caller';
import { userPrincipal } from '../auth/testing/principals';
import type { AllowancesService } from '../allowances/allowances.service';
import type { AppConfig } from '../config/app-config';
import { fakeDataSource } from '../database/testing/fake-data-source';
import { beginMembership } from '../members/memberships.repository';
import type { NotificationBus } from '../notifications/notification-bus';
import type { RolesRepository } from '../roles/roles.repository';
import { OrganisationSetupService } from './organisation-setup.service';
import { OrganisationService } from './organisation.service';
import type { OrganisationRow, OrganisationsRepository } from './organisations.repository';

// The memberships' owner and the account description are function-style: faked here.
jest.mock('../members/memberships.repository', () => ({
  beginMembership: jest.fn(async () => 'joined'),
}));
jest.mock('../users/account.util', () => ({
  describeJoined: jest.fn(async (_db: unknown, userId: string, organisationId: string) => ({
    userId,
    organisationId,
  })),
}));

const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const ada: MemberActor = { type: 'member', id: 'u-ada', name: 'Ada Lovelace' };
/** Ada, signed in, on a route that acts for no organisation. */
const adaSignedIn: UserCall = {
  user: userPrincipal({ userId: ada.id, userName: ada.name }),
  ip: null,
};
const byAda: MemberCall = { organisationId: ORG, actor: ada, ip: null };
const acme: OrganisationRow = {
  id: ORG,
  name: 'Acme',
  plan: 'free',
  created_at: new Date('2026-11-22T00:00:00.000Z'),
};
const usage = { month: '2026-11' } as unknown as Awaited<ReturnType<AllowancesService['summary']>>;

function setUp(
  options: { signup?: 'open' | 'closed'; organisation?: OrganisationRow | undefined } = {},
) {
  const { dataSource, tx, audit } = fakeDataSource();
  const row = 'organisation' in options ? options.organisation : acme;
  const organisations = {
    insert: jest.fn(async () => undefined),
    read: jest.fn(async () => row),
    lock: jest.fn(async () => row),
    setPlan: jest.fn(async () => undefined),
  } as unknown as OrganisationsRepository;
  const roles = {
    insert: jest.fn(async (_db: unknown, _org: string, role: object) => role),
  } as unknown as RolesRepository;
  const events: string[] = [];
  const bus = {
    publish: jest.fn(
      async (channel: string, payload: string) => void events.push(`${channel} ${payload}`),
    ),
    sync: jest.fn(async () => void events.push('sync')),
  } as unknown as NotificationBus;
  const allowances = { summary: jest.fn(async () => usage) } as unknown as AllowancesService;
  const setup = new OrganisationSetupService(organisations, roles);
  const config = { signup: options.signup ?? 'open' } as AppConfig;
  const service = new OrganisationService(
    dataSource,
    organisations,
    bus,
    allowances,
    setup,
    config,
  );
  return { service, setup, organisations, roles, bus, events, tx, audit };
}

describe('OrganisationSetupService', () => {
  it('creates the organisation, its three built-in roles and its Owner, audited', async () => {
    const { setup, organisations, roles, tx, audit } = setUp();
    const created = await setup.create(tx, {
      organisationName: 'Acme',
      owner: { userId: ada.id, name: ada.name },
      ipAddress: null,
    });
    expect(organisations.insert).toHaveBeenCalledWith(tx, created.organisationId, 'Acme');
    expect(roles.insert).toHaveBeenCalledTimes(3);
    for (const role of Object.values(BUILT_IN_ROLES)) {
      expect(roles.insert).toHaveBeenCalledWith(tx, created.organisationId, {
        id: created.roleIds[role.key],
        name: role.name,
        permissions: role.permissions,
        builtIn: role.key,
      });
    }
    expect(beginMembership).toHaveBeenCalledWith(
      tx,
      created.organisationId,
      ada.id,
      created.roleIds.owner,
    );
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'organisation.created',
        actor: ada,
        target: { type: 'organisation', id: created.organisationId, name: 'Acme' },
      }),
    ]);
  });
});

describe('OrganisationService', () => {
  it('reads the organisation with its usage; 404 when there is none', async () => {
    await expect(setUp().service.get(ORG)).resolves.toEqual({
      id: ORG,
      name: 'Acme',
      plan: 'free',
      createdAt: '2026-11-22T00:00:00.000Z',
      usage,
    });
    await expect(setUp({ organisation: undefined }).service.get(ORG)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    });
  });

  it('changes the plan under a lock, audits it, and tells every instance before answering', async () => {
    const { service, organisations, events, tx, audit } = setUp();
    await service.changePlan({ ...byAda, ip: '203.0.113.7' }, 'pro');
    expect(organisations.lock).toHaveBeenCalledWith(tx, ORG, 'FOR NO KEY UPDATE');
    expect(organisations.setPlan).toHaveBeenCalledWith(tx, ORG, 'pro');
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'billing.plan_changed',
        actor: ada,
        metadata: { from: 'free', to: 'pro' },
      }),
    ]);
    expect(events).toEqual([`interlock_auth org:${ORG}`, 'sync']);
  });

  it('writes nothing when the plan is already the one asked for', async () => {
    const { service, organisations, audit } = setUp();
    await service.changePlan(byAda, 'free');
    expect(organisations.setPlan).not.toHaveBeenCalled();
    expect(audit).toEqual([]);
  });

  it('lets a signed-in person create an organisation they own, unless sign-up is closed', async () => {
    const open = setUp();
    const joined = await open.service.create(adaSignedIn, 'Beta');
    expect(joined).toMatchObject({ userId: ada.id });
    expect(open.audit.map((e) => e.action)).toEqual(['organisation.created']);

    const closed = setUp({ signup: 'closed' });
    await expect(closed.service.create(adaSignedIn, 'Beta')).rejects.toMatchObject({
      code: 'SIGNUP_CLOSED',
      message: 'Creating organisations is closed on this server; ask an administrator.',
    });
    expect(closed.organisations.insert).not.toHaveBeenCalled();
    expect(closed.audit).toEqual([]);
  });
});
