// An OpenID provider for the sign-in tests (the `oidc-provider` package), run as a process of its own on
// 127.0.0.1: node support/oidc-idp.mjs '<json>' prints "READY <port>". The JSON holds its clients and accounts.
// Sign-in is automatic: the account signs in that the test named last (POST /test/next-login {"account": id}), and
// consent is granted. POST /test/forge {"on": true} makes the token endpoint answer id_tokens signed with a key that
// is not in the provider's JWKS (a forged token). Not part of the product.
import { createServer } from 'node:http';
import { generateKeyPair, exportJWK, SignJWT, decodeProtectedHeader } from 'jose';
import Provider from 'oidc-provider';

const options = JSON.parse(process.argv[2] ?? '{}');
const accounts = options.accounts ?? {};
let nextAccount = Object.keys(accounts)[0];
let forge = false;

const signing = await generateKeyPair('RS256', { extractable: true });
const rogue = await generateKeyPair('RS256', { extractable: true });
const jwk = { ...(await exportJWK(signing.privateKey)), kid: 'test-key', use: 'sig', alg: 'RS256' };

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

const server = createServer();
server.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: options.clients ?? [],
    jwks: { keys: [jwk] },
    cookies: { keys: ['confab-test-idp-cookie-key'] },
    findAccount: async (_ctx, id) =>
      accounts[id] ? { accountId: id, claims: async () => ({ sub: id, ...accounts[id] }) } : undefined,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });
  provider.on('server_error', (_ctx, err) => console.error('idp server_error', err));
  const handle = provider.callback();
  server.on('request', async (req, res) => {
    try {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/test/next-login' && req.method === 'POST') {
        nextAccount = JSON.parse(await readBody(req)).account;
        res.writeHead(204).end();
        return;
      }
      if (path === '/test/forge' && req.method === 'POST') {
        forge = JSON.parse(await readBody(req)).on === true;
        res.writeHead(204).end();
        return;
      }
      if (path.startsWith('/interaction/')) {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === 'login') {
          await provider.interactionFinished(
            req,
            res,
            { login: { accountId: nextAccount } },
            { mergeWithLastSubmission: false },
          );
        } else {
          const grant = new provider.Grant({
            accountId: details.session.accountId,
            clientId: details.params.client_id,
          });
          grant.addOIDCScope(String(details.params.scope));
          await provider.interactionFinished(
            req,
            res,
            { consent: { grantId: await grant.save() } },
            { mergeWithLastSubmission: true },
          );
        }
        return;
      }
      if (path === '/token' && forge) {
        // Let the provider answer, then put a forged id_token (same claims and kid, another key) in its place.
        const end = res.end.bind(res);
        const chunks = [];
        res.write = (chunk) => (chunks.push(Buffer.from(chunk)), true);
        res.end = (chunk, ...rest) => {
          if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk));
          const answer = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (!answer.id_token) return end(Buffer.concat(chunks), ...rest);
          const [, payload] = answer.id_token.split('.');
          const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
          const header = decodeProtectedHeader(answer.id_token);
          new SignJWT(claims)
            .setProtectedHeader({ alg: 'RS256', kid: header.kid })
            .sign(rogue.privateKey)
            .then((forged) => {
              const text = JSON.stringify({ ...answer, id_token: forged });
              res.setHeader('content-length', Buffer.byteLength(text));
              end(text);
            });
          return res;
        };
      }
      handle(req, res);
    } catch (err) {
      console.error(err);
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  });
  console.log(`READY ${port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
