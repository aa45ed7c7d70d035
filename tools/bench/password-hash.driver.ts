// The service's own password hashing (apps/api/src/auth/password.util.ts), bundled for
// password-hash.bench.mjs.
export { hashPassword, passwordMatches } from '../../apps/api/src/auth/password.util';
