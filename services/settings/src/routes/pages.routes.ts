import { ConfabError } from '@confab/errors';
import { escapeHtml, htmlPage, p, RawResponse, route } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import { CONFIRM_PATH, confirmEmailChange, inspectEmailChangeLink, type LinkProblem } from '../domain/email-change.js';
import { serverEmojiData } from '../domain/emoji.js';
import { BIGBLUEBUTTON_JOIN_PATH, BIGBLUEBUTTON_NOT_CONFIGURED } from '../domain/meetings/bigbluebutton.js';
import { OAuthMeetingProvider } from '../domain/meetings/oauth-provider.js';
import { storedImage } from '../domain/avatars.js';
import { emojiImage } from '../domain/realm-emoji.js';
import { EMOJI_DATA_PATH } from '../domain/realm-state.js';
import { OAUTH_COMPLETE_PATH } from '../wiring.js';

const LINK_PROBLEMS: Record<LinkProblem, string> = {
  not_found: 'We could not find this confirmation link. Check that you copied the whole link from the email.',
  expired: 'This confirmation link has expired. Start the email change again from your settings.',
  used: 'This confirmation link has already been used, or a newer email change replaced it.',
};

const linkProblemPage = (problem: LinkProblem) =>
  htmlPage(404, 'Confirmation link not valid', `<p>${escapeHtml(LINK_PROBLEMS[problem])}</p>`);

const notFoundFile = () => new RawResponse(404, 'Not Found', { 'content-type': 'text/plain' });

/** A stored image under a name never reused, so cached for good; 404 when there is none. */
function imageResponse(image: { data: Buffer; contentType: string } | null): RawResponse {
  if (!image) return notFoundFile();
  return new RawResponse(200, image.data, {
    'content-type': image.contentType,
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
  });
}

/**
 * Pages a browser opens (through the gateway, without credentials): email-change links and OAuth redirects; and
 * files clients fetch without credentials, as from Zulip's web server: custom emoji images and the emoji data.
 */
export function pageRoutes(deps: SettingsDeps) {
  let emojiData: Buffer | undefined;
  return [
    route({
      // The page a BigBlueButton link (GET /calls/bigbluebutton/create) opens in a browser.
      method: 'GET',
      path: BIGBLUEBUTTON_JOIN_PATH,
      auth: 'public',
      handler: () => htmlPage(400, BIGBLUEBUTTON_NOT_CONFIGURED, `<p>${BIGBLUEBUTTON_NOT_CONFIGURED}</p>`),
    }),
    route({
      method: 'GET',
      path: '/user_avatars/{realm_id:int}/emoji/images/{file_name:str}',
      auth: 'public',
      // File names are never reused (they are the emoji's id), so the image can be cached for good.
      handler: async ({ path }) => imageResponse(await emojiImage(deps, path.realm_id, path.file_name)),
    }),
    route({
      // Uploaded avatars (and the organization's icon and logo): names are never reused either.
      method: 'GET',
      path: '/user_avatars/{realm_id:int}/{file_name:str}',
      auth: 'public',
      handler: async ({ path }) => imageResponse(await storedImage(deps.images, path.realm_id, path.file_name)),
    }),
    route({
      method: 'GET',
      path: EMOJI_DATA_PATH,
      auth: 'public',
      handler() {
        emojiData ??= Buffer.from(JSON.stringify(serverEmojiData()));
        return new RawResponse(200, emojiData, {
          'content-type': 'application/json',
          'cache-control': 'public, max-age=86400',
        });
      },
    }),
    route({
      // Opening the link only shows a form: mail scanners that fetch links must not change anyone's address.
      method: 'GET',
      path: `${CONFIRM_PATH}/{key:str}`,
      auth: 'public',
      async handler({ path }) {
        const found = await inspectEmailChangeLink(deps, path.key);
        if (typeof found === 'string') return linkProblemPage(found);
        return htmlPage(
          200,
          'Confirm your new email address',
          `<p>Change the email address of your account from <strong>${escapeHtml(found.oldEmail)}</strong> to <strong>${escapeHtml(found.newEmail)}</strong>?</p>
<form method="post" action="${CONFIRM_PATH}"><input type="hidden" name="key" value="${escapeHtml(path.key)}"><button type="submit">Confirm</button></form>
<script>document.forms[0].submit();</script>`,
        );
      },
    }),
    route({
      method: 'POST',
      path: CONFIRM_PATH,
      auth: 'public',
      params: { key: p.string() },
      async handler({ params, requestId }) {
        const outcome = await confirmEmailChange(deps, params.key, requestId);
        if (outcome.kind === 'link') return linkProblemPage(outcome.problem);
        if (outcome.kind === 'refused')
          return htmlPage(400, 'Email address not changed', `<p>${escapeHtml(outcome.message)}</p>`);
        return htmlPage(
          200,
          'Email address changed',
          `<p>The email address of your account is now <strong>${escapeHtml(outcome.newEmail)}</strong> (it was ${escapeHtml(outcome.oldEmail)}). Use it to log in from now on.</p>`,
        );
      },
    }),
    route({
      method: 'GET',
      path: OAUTH_COMPLETE_PATH,
      auth: 'public',
      params: { code: p.string().optional(), state: p.string().default(''), error: p.string().optional() },
      async handler({ params, requestId }) {
        const provider = deps.meetings;
        if (!(provider instanceof OAuthMeetingProvider))
          return htmlPage(404, 'Not found', '<p>No meeting provider uses authorization on this server.</p>');
        const title = `${provider.name} authorization`;
        if (params.error !== undefined || params.code === undefined) {
          return htmlPage(
            400,
            title,
            `<p>${escapeHtml(provider.name)} did not grant access${params.error ? ` (${escapeHtml(params.error)})` : ''}.</p>`,
          );
        }
        try {
          await provider.completeAuthorization(params.code, params.state, requestId);
        } catch (err) {
          if (!(err instanceof ConfabError)) throw err;
          return htmlPage(400, title, `<p>${escapeHtml(err.message)}.</p>`);
        }
        return htmlPage(
          200,
          title,
          `<p>You can now create ${escapeHtml(provider.name)} meetings. You may close this window.</p>`,
        );
      },
    }),
  ];
}
