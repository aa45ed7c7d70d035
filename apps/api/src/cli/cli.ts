/**
 * Operator commands, run against DATABASE_URL (or the embedded database when the service is
 * not running):  npm run cli -- <command> [options]
 *
 *   create-organisation --name <organisation> --owner-email <email> --owner-name <name> [--password-stdin]
 *       Creates an organisation on the Free plan and its Owner — the way in when SIGNUP=closed.
 *       A new account's password is read from standard input with --password-stdin, else
 *       generated and printed once; an email that already has an account owns the new
 *       organisation with its own password, unchanged.
 *
 *   disable-two-factor --email <email>
 *       Turns two-factor sign-in off for a person who lost both their authenticator and their
 *       recovery codes (after the operator has made sure it is them): their key and codes are
 *       deleted and every sign-in session of theirs ends; audited (actor system) in each of
 *       their organisations. They sign in with their password and may set it up again.
 *
 *   verify-audit-chain [--organisation <id>]
 *       Recomputes every organisation's (or one's) audit hash chain and reports the first
 *       broken link. Exit 0 when every chain is intact, 3 when one is broken.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ConfigError, configFromEnvironment } from '../config/app-config';
import { verifyAuditChain } from '@interlock/audit';
import { DatabaseConnection } from '../database/database-connection';
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../auth/password.util';
import { SignInSessionsRepository } from '../auth/sign-in-sessions.repository';
import { OrganisationSetupService } from '../organisation/organisation-setup.service';
import { OrganisationsRepository } from '../organisation/organisations.repository';
import { RolesRepository } from '../roles/roles.repository';
import { auditAccountEvent } from '../users/account-audit';
import { TwoFactorRepository } from '../users/two-factor.repository';
import { findUserByEmail, insertUser, normaliseEmail } from '../users/users.repository';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function createOrganisation(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-name': { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const name = values.name?.trim();
  const email = values['owner-email']?.trim();
  const ownerName = values['owner-name']?.trim();
  if (!name || !email || !ownerName || !/^[^@\s]+@[^@\s]+$/.test(email)) {
    console.error(
      'Usage: create-organisation --name <organisation> --owner-email <email> --owner-name <name> [--password-stdin]',
    );
    return 2;
  }
  const config = configFromEnvironment();
  const connection = await DatabaseConnection.open(config);
  try {
    // An address that already has an account becomes the new organisation's Owner as it is:
    // its password is the person's own and is neither asked for nor changed.
    const existing = await findUserByEmail(connection.dataSource.manager, email);
    const generated = existing === undefined && !values['password-stdin'];
    const password =
      existing !== undefined
        ? undefined
        : generated
          ? randomBytes(18).toString('base64url')
          : await readStdin();
    if (
      password !== undefined &&
      (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH)
    ) {
      console.error(
        `The password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long.`,
      );
      return 2;
    }
    const passwordHash =
      password === undefined
        ? undefined
        : await hashPassword(password, config.accounts.passwordScryptLogN);
    const created = await connection.dataSource.transaction(async (tx) => {
      const owner =
        existing !== undefined
          ? { userId: existing.id, name: existing.name }
          : {
              userId: await insertUser(tx, {
                email,
                name: ownerName,
                passwordHash: passwordHash as string,
              }),
              name: ownerName,
            };
      return new OrganisationSetupService(
        new OrganisationsRepository(),
        new RolesRepository(),
      ).create(tx, { organisationName: name, owner, ipAddress: null });
    });
    console.log(
      `Created organisation ${name} (${created.organisationId}) with owner ${normaliseEmail(email)}` +
        (existing !== undefined ? ' (an existing account, password unchanged).' : '.'),
    );
    if (generated) console.log(`Owner password (shown once): ${password}`);
    return 0;
  } finally {
    await connection.close();
  }
}

async function disableTwoFactor(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' } }, strict: true });
  if (values.email === undefined) {
    console.error('Usage: npm run cli -- disable-two-factor --email <email>');
    return 2;
  }
  const connection = await DatabaseConnection.open(configFromEnvironment());
  try {
    const ds = connection.dataSource;
    const user = await findUserByEmail(ds.manager, values.email);
    if (user === undefined) {
      console.error(`No account has the address ${normaliseEmail(values.email)}.`);
      return 2;
    }
    const turnedOff = await ds.transaction(async (tx) => {
      if (!(await new TwoFactorRepository().remove(tx, user.id))) return false;
      await new SignInSessionsRepository().deleteAllOfUser(tx, user.id, null);
      await auditAccountEvent(
        tx,
        user,
        { action: 'member.two_factor_disabled', metadata: { method: 'totp', via: 'operator' } },
        null,
        { type: 'system', id: null, name: 'Interlock' },
      );
      return true;
    });
    console.log(
      turnedOff
        ? `Two-factor sign-in is off for ${user.email}; their sign-in sessions ended. They sign in with their password alone and can set it up again in Settings → Security.`
        : `Two-factor sign-in was not on for ${user.email}; nothing changed.`,
    );
    return 0;
  } finally {
    await connection.close();
  }
}

async function verifyChains(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { organisation: { type: 'string' } },
    strict: true,
  });
  const connection = await DatabaseConnection.open(configFromEnvironment());
  try {
    const ds = connection.dataSource;
    const organisations: { id: string; name: string }[] =
      values.organisation === undefined
        ? await ds.query(`SELECT id, name FROM organisations ORDER BY created_at`)
        : await ds.query(`SELECT id, name FROM organisations WHERE id::text = $1`, [
            values.organisation,
          ]);
    if (organisations.length === 0) {
      console.error('No such organisation.');
      return 2;
    }
    let broken = 0;
    for (const org of organisations) {
      const verdict = await verifyAuditChain(ds, org.id);
      if (verdict.ok) {
        console.log(`ok      ${org.id} ${org.name}: ${verdict.entries} entries`);
      } else {
        broken++;
        const { seq, id, reason } = verdict.brokenAt;
        console.log(
          `BROKEN  ${org.id} ${org.name}: entry ${seq}${id ? ` (${id})` : ''}: ${reason}`,
        );
      }
    }
    return broken === 0 ? 0 : 3;
  } finally {
    await connection.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'create-organisation':
      return createOrganisation(rest);
    case 'disable-two-factor':
      return disableTwoFactor(rest);
    case 'verify-audit-chain':
      return verifyChains(rest);
    default:
      console.error(
        'Usage: npm run cli -- create-organisation --name <organisation> --owner-email <email> --owner-name <name> [--password-stdin]\n' +
          '       npm run cli -- disable-two-factor --email <email>\n' +
          '       npm run cli -- verify-audit-chain [--organisation <id>]',
      );
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError) console.error(error.message);
    else console.error(error instanceof Error ? error.message : error);
    process.exit(error instanceof ConfigError ? 78 : 1);
  },
);
