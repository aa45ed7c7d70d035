// A real OpenID provider (the `oidc-provider` package, pinned in devDependencies) for the single
// sign-on tests, the API's e2e and the dashboard's Playwright flow alike: run it with node, it
// prints one JSON line `{"issuer": "..."}` once it listens.
//
// Environment: OIDC_CLIENTS — JSON array of {client_id, client_secret, redirect_uris}.
// Accounts: any login on its (development) sign-in page is an account; the login is the email
// address, `email_verified` is true unless the login starts with `unverified.`.
// Test knob: POST /__test/next-id-token {"aud"?, "nonce"?, "expiresIn"?} changes the claims of the
// next ID token the token endpoint answers (re-signed with the provider's own key), so the
// relying party's audience, nonce and expiry checks can be shown to refuse it.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';

const clients = JSON.parse(process.env.OIDC_CLIENTS ?? '[]');
const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: clients.map((c) => ({
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
    ...c,
  })),
  jwks: { keys: [jwk] },
  cookies: { keys: ['interlock-test-provider-cookie-key'] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  // The claims the scopes ask for go into the ID token itself (the relying party reads them there).
  conformIdTokenClaims: false,
  features: { devInteractions: { enabled: true } },
  // First-party: no consent page after the sign-in page.
  async loadExistingGrant(ctx) {
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
  async findAccount(_ctx, id) {
    const email = id.replace(/^unverified\./, '');
    return {
      accountId: id,
      async claims() {
        return {
          sub: id,
          email,
          email_verified: !id.startsWith('unverified.'),
          name: `SSO ${email.slice(0, email.indexOf('@'))}`,
        };
      },
    };
  },
});
provider.on('server_error', (_ctx, error) => console.error(error));

let nextIdToken;
provider.use(async (ctx, next) => {
  if (ctx.path === '/__test/next-id-token' && ctx.method === 'POST') {
    const chunks = [];
    for await (const chunk of ctx.req) chunks.push(chunk);
    nextIdToken = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    ctx.status = 204;
    return;
  }
  await next();
  if (ctx.path === '/token' && nextIdToken !== undefined && ctx.body?.id_token) {
    const change = nextIdToken;
    nextIdToken = undefined;
    const claims = { ...decodeJwt(ctx.body.id_token) };
    if (change.aud !== undefined) claims.aud = change.aud;
    if (change.nonce !== undefined) claims.nonce = change.nonce;
    if (change.expiresIn !== undefined) {
      const now = Math.floor(Date.now() / 1000);
      claims.exp = now + change.expiresIn;
      claims.iat = Math.min(claims.iat, claims.exp - 60);
    }
    const header = decodeProtectedHeader(ctx.body.id_token);
    ctx.body = {
      ...ctx.body,
      id_token: await new SignJWT(claims).setProtectedHeader(header).sign(privateKey),
    };
  }
});

server.on('request', provider.callback());
console.log(JSON.stringify({ issuer }));
