import type { Queryable } from '../database/query-rows.util';
import { organisationsOfUser } from '../members/memberships.repository';
import type {
  AccountOrganisation,
  AccountResponse,
  OrganisationJoinedResponse,
} from './dto/account.response';
import { findUser } from './users.repository';
import { DomainError } from '@interlock/domain';

/** A user and their current memberships, as the API shows them. */
export async function describeAccount(db: Queryable, userId: string): Promise<AccountResponse> {
  const user = await findUser(db, userId);
  if (user === undefined) throw DomainError.of('NOT_FOUND');
  const organisations: AccountOrganisation[] = (await organisationsOfUser(db, userId)).map((o) => ({
    id: o.id,
    name: o.name,
    plan: o.plan,
    roleId: o.role_id,
    roleName: o.role_name,
    joinedAt: o.joined_at.toISOString(),
  }));
  return {
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      emailVerified: user.email_verified_at !== null,
    },
    organisations,
  };
}

/** The account, and the organisation it just created or joined. */
export async function describeJoined(
  db: Queryable,
  userId: string,
  organisationId: string,
): Promise<OrganisationJoinedResponse> {
  const account = await describeAccount(db, userId);
  const organisation = account.organisations.find((o) => o.id === organisationId);
  if (organisation === undefined) throw DomainError.of('NOT_FOUND');
  return { ...account, organisation };
}
