import { escapeHtml, htmlPage, p, route } from '@confab/http';
import type { InvitationsDeps } from '../deps.js';
import { openLink, signUp, type JoinContext, type LinkProblem, type OpenLink } from '../domain/join.js';

const LINK_PROBLEMS: Record<LinkProblem, [number, string, string]> = {
  not_found: [
    404,
    'Invitation link not valid',
    'We could not find this invitation link. Check that you copied the whole link, or ask for a new one.',
  ],
  expired: [
    404,
    'Invitation link expired',
    'This invitation link has expired. Ask the person who invited you for a new one.',
  ],
  revoked: [
    404,
    'Invitation link revoked',
    'This invitation link has been revoked. Ask the person who invited you for a new one.',
  ],
  used: [404, 'Invitation already used', 'This invitation has already been used. Log in with the account it created.'],
  deactivated: [404, 'Organization deactivated', 'This organization has been deactivated.'],
};

const problemPage = (problem: LinkProblem) => {
  const [status, title, text] = LINK_PROBLEMS[problem];
  return htmlPage(status, title, `<p>${escapeHtml(text)}</p>`);
};

interface FormValues {
  fullName: string;
  email: string;
}

/** The sign-up form; `error` is shown above it (role="alert"), and what was typed (but the password) is kept. */
function signUpPage(link: OpenLink, status: number, values: FormValues, error?: string) {
  const action = `/join/${escapeHtml(link.invite.key)}/`;
  return htmlPage(
    status,
    `Join ${link.realm.name}`,
    `${error ? `<p role="alert" id="error" style="color: #b00020">${escapeHtml(error)}</p>\n` : ''}<p>You have been invited to join <strong>${escapeHtml(link.realm.name)}</strong>. Create your account:</p>
<form method="post" action="${action}">
<p><label for="full_name">Name</label><br><input id="full_name" name="full_name" required maxlength="100" autocomplete="name" value="${escapeHtml(values.fullName)}"></p>
<p><label for="email">Email</label><br><input id="email" name="email" type="email" required maxlength="254" autocomplete="email" value="${escapeHtml(values.email)}"></p>
<p><label for="password">Password</label><br><input id="password" name="password" type="password" required autocomplete="new-password"></p>
<p><button type="submit" id="submit">Sign up</button></p>
</form>
<script>document.forms[0].addEventListener('submit', function () { document.getElementById('submit').disabled = true; });</script>`,
  );
}

/** The page an invitation link opens (through the gateway, without credentials), and its form's target. */
export function joinPageRoutes(deps: InvitationsDeps) {
  const ctx: JoinContext = {
    repo: deps.repo,
    owners: deps.owners,
    defaultWelcomeText: deps.config.defaultWelcomeText,
    logger: deps.logger,
  };
  return [
    route({
      method: 'GET',
      path: '/join/{key:str}',
      auth: 'public',
      async handler({ path }) {
        const link = await openLink(ctx, path.key);
        if (typeof link === 'string') return problemPage(link);
        return signUpPage(link, 200, { fullName: '', email: link.invite.email ?? '' });
      },
    }),
    route({
      method: 'POST',
      path: '/join/{key:str}',
      auth: 'public',
      params: {
        full_name: p.string().default(''),
        email: p.string().default(''),
        password: p.string().default(''),
      },
      async handler({ path, params }) {
        const values = { fullName: params.full_name, email: params.email };
        const outcome = await signUp(ctx, path.key, { ...values, password: params.password });
        switch (outcome.kind) {
          case 'link':
            return problemPage(outcome.problem);
          case 'refused':
            return signUpPage(outcome.link, 400, values, outcome.message);
          case 'already':
            return htmlPage(
              409,
              'Account already exists',
              `<p role="alert" id="error">${escapeHtml(outcome.message)}</p>`,
            );
          case 'created': {
            // The organization's web client, whose sign-in form the address is filled in on.
            const app = `${outcome.link.realm.url.replace(/\/+$/, '')}/?email=${encodeURIComponent(outcome.email)}`;
            return htmlPage(
              200,
              `Welcome to ${outcome.link.realm.name}`,
              `<p id="created">Your account <strong>${escapeHtml(outcome.email)}</strong> has been created.</p>` +
                `<p><a id="continue" href="${escapeHtml(app)}">Sign in to ${escapeHtml(outcome.link.realm.name)}</a> with your email address and password.</p>`,
            );
          }
        }
      },
    }),
  ];
}
