import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** SPEC §8f: a password a person chooses is 8 to 200 characters; one checked is at most 200. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;

/**
 * Passwords are hashed with scrypt (memory-hard) at OWASP's current parameters: N = 2^17, r = 8,
 * p = 1 — 128 MiB per hash. The cost is `PASSWORD_SCRYPT_LOG_N` (17 by default; production refuses
 * less): the e2e suites, which create hundreds of people, run at 2^14. The parameters travel
 * with each hash, so a hash made at another cost still verifies and is upgraded at the next
 * sign-in (`needsRehash`).
 */
export const DEFAULT_SCRYPT_LOG_N = 17;
/** The least cost production accepts (OWASP's scrypt recommendation). */
export const MIN_PRODUCTION_SCRYPT_LOG_N = 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
/** Hashes stored at more than this cost are refused rather than computed (a stored hash is ours, but bounded anyway). */
const MAX_LOG_N = 20;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      // scrypt needs 128 · N · r bytes; Node's default ceiling (32 MiB) is below 2^17's 128 MiB.
      { N: n, r, p, maxmem: 128 * n * r + 16 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

/** `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>`: the parameters travel with the hash. */
export async function hashPassword(
  password: string,
  logN: number = DEFAULT_SCRYPT_LOG_N,
): Promise<string> {
  const n = 2 ** logN;
  const salt = randomBytes(16);
  const key = await derive(password, salt, n, R, P);
  return `scrypt$${n}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

interface StoredHash {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function parse(stored: string): StoredHash | undefined {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || hash === undefined) return undefined;
  const parsed = { n: Number(n), r: Number(r), p: Number(p) };
  if (
    !Number.isInteger(parsed.n) ||
    parsed.n < 2 ||
    parsed.n > 2 ** MAX_LOG_N ||
    !Number.isInteger(parsed.r) ||
    !Number.isInteger(parsed.p)
  )
    return undefined;
  return { ...parsed, salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
}

/** Whether `stored` is a password's hash: an account single sign-on made holds none until a reset. */
export function isPasswordHash(stored: string): boolean {
  return parse(stored) !== undefined;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (parsed === undefined) return false;
  const actual = await derive(password, parsed.salt, parsed.n, parsed.r, parsed.p);
  return actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash);
}

/** Whether a stored hash was made with other parameters than today's (then it is replaced at sign-in). */
export function needsRehash(stored: string, logN: number = DEFAULT_SCRYPT_LOG_N): boolean {
  const parsed = parse(stored);
  return parsed === undefined || parsed.n !== 2 ** logN || parsed.r !== R || parsed.p !== P;
}

/**
 * Whether `password` is the person's: `stored` is their hash, undefined when no account has the
 * address. No account, or one without a password (single sign-on made it: its stored value is
 * no hash), is checked against the decoy at `logN` and refused, so every refusal costs one
 * scrypt and its timing says neither which addresses have accounts nor how they sign in.
 */
export async function passwordMatches(
  password: string,
  stored: string | undefined,
  logN: number = DEFAULT_SCRYPT_LOG_N,
): Promise<boolean> {
  if (stored !== undefined && parse(stored) !== undefined) return verifyPassword(password, stored);
  await verifyPassword(password, await decoyPasswordHash(logN));
  return false;
}

const decoys = new Map<number, Promise<string>>();

/**
 * A hash of nobody's password at the given cost. Signing in with an unknown email verifies
 * against it, so an unknown email and a wrong password cost the same time.
 */
export function decoyPasswordHash(logN: number = DEFAULT_SCRYPT_LOG_N): Promise<string> {
  let decoy = decoys.get(logN);
  if (decoy === undefined) {
    decoy = hashPassword(randomBytes(16).toString('hex'), logN);
    decoys.set(logN, decoy);
  }
  return decoy;
}
