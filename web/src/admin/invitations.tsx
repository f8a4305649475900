/**
 * Invitations, for administrators (issue 32): invite people by email (POST /invites: addresses, role, channels,
 * expiry) or make a reusable link (POST /invites/multiuse), see every pending invitation and link of the
 * organization (GET /invites, read again on `invites_changed` events), resend an email (POST /invites/{id}/resend)
 * and revoke either (DELETE /invites/{id}, DELETE /invites/multiuse/{id}). Refusals show the server's text, and for
 * email invitations each refused address with its reason.
 */
import { ROLE_LABELS, ROLE_MEMBER, ROLES as ALL_ROLES } from '@confab/zulip';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../lib/api';
import * as client from '../lib/client';
import { streams, userName } from '../store/store';
import { Field } from '../ui/field';
import { errorText, Outcome, useAction } from '../ui/outcome';
import { RecordTable } from '../ui/record-table';
import { defaultChannels, invitesChanged } from '../store/admin';
import './invitations-export.css';

interface Invite {
  id: number;
  invited_by_user_id: number;
  invited: number;
  expiry_date: number | null;
  invited_as: number;
  is_multiuse: boolean;
  email?: string;
  link_url?: string;
}

/** Roles one may invite as, most restricted first (the server refuses a role above one's own). */
const ROLES: [number, string][] = [...ALL_ROLES].reverse().map((role) => [role, ROLE_LABELS[role]]);
const roleName = (role: number) => ROLES.find(([r]) => r === role)?.[1] ?? String(role);

/** Zulip's choices of how long an invitation lasts, in minutes ('null': never expires). */
const EXPIRY: [string, string][] = [
  ['1440', '1 day'],
  ['4320', '3 days'],
  ['14400', '10 days'],
  ['43200', '30 days'],
  ['null', 'Never'],
];

const date = (seconds: number) => new Date(seconds * 1000).toLocaleString();

/** The refused addresses of an INVITATION_FAILED answer, as "address: reason". */
function refusedAddresses(e: unknown): string[] {
  if (!(e instanceof ApiError) || !Array.isArray(e.body.errors)) return [];
  return (e.body.errors as [string, string, boolean][]).map(([address, reason]) => `${address}: ${reason}`);
}

export function Invitations() {
  const { ok, error, run } = useAction();
  const [refused, setRefused] = useState<string[]>([]);
  const [invites, setInvites] = useState<Invite[] | null>(null);
  const [listError, setListError] = useState('');
  const [emails, setEmails] = useState('');
  const [role, setRole] = useState(String(ROLE_MEMBER));
  const [expiry, setExpiry] = useState('14400');
  const [channels, setChannels] = useState<number[]>(defaultChannels.value);
  const [link, setLink] = useState('');
  const changed = invitesChanged.value;
  const load = () =>
    client.invitations
      .list<Invite>()
      .then((answer) => {
        setInvites([...answer.invites].sort((a, b) => b.invited - a.invited));
        setListError('');
      })
      .catch((e: unknown) => setListError(errorText(e)));
  useEffect(() => void load(), [changed]);

  /** Runs a request, then reads the list again; an invitation's refused addresses are listed under its error. */
  async function act(action: () => Promise<unknown>, done: string): Promise<boolean> {
    setRefused([]);
    const succeeded = await run(async () => {
      try {
        return await action();
      } catch (e) {
        setRefused(refusedAddresses(e));
        throw e;
      }
    }, done);
    await load();
    return succeeded;
  }
  const choices = streams.value.filter((s) => !s.is_archived);
  const common = () => ({
    invite_as: Number(role),
    invite_expires_in_minutes: expiry,
    stream_ids: channels,
  });

  return (
    <section aria-labelledby="admin-invites-heading" class="admin-invitations">
      <h2 id="admin-invites-heading">Invitations</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act(() => client.invitations.send({ invitee_emails: emails, ...common() }), 'Invitations sent').then(
            (sent) => sent && setEmails(''),
          );
        }}
      >
        <Field
          id="admin-invite-emails"
          label="Email addresses (separated by commas or new lines)"
          value={emails}
          onValue={setEmails}
          multiline
        />
        <label for="admin-invite-role">Join as</label>
        <select id="admin-invite-role" value={role} onChange={(e) => setRole(e.currentTarget.value)}>
          {ROLES.map(([value, label]) => (
            <option key={value} value={String(value)}>
              {label}
            </option>
          ))}
        </select>
        <label for="admin-invite-expiry">Expires after</label>
        <select id="admin-invite-expiry" value={expiry} onChange={(e) => setExpiry(e.currentTarget.value)}>
          {EXPIRY.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <fieldset class="admin-invite-channels">
          <legend>Channels they join</legend>
          {choices.map((s) => (
            <label key={s.stream_id} class="check">
              <input
                type="checkbox"
                value={String(s.stream_id)}
                checked={channels.includes(s.stream_id)}
                onChange={(e) =>
                  setChannels(
                    e.currentTarget.checked ? [...channels, s.stream_id] : channels.filter((id) => id !== s.stream_id),
                  )
                }
              />
              #{s.name}
            </label>
          ))}
        </fieldset>
        <button id="admin-invite-send" type="submit">
          Send invitations
        </button>
        <button
          id="admin-invite-link"
          type="button"
          onClick={() => {
            setLink('');
            void act(async () => {
              const answer = await client.invitations.link(common());
              setLink(answer.invite_link);
            }, 'Invitation link created');
          }}
        >
          Create an invitation link
        </button>
      </form>
      <Outcome ok={ok} error={error} />
      {refused.length > 0 && (
        <ul class="admin-invite-refused" aria-label="Addresses not invited">
          {refused.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {link && (
        <p class="admin-invite-new-link">
          New link (the same for everyone you share it with):{' '}
          <output id="admin-invite-link-url" aria-label="New invitation link">
            {link}
          </output>
        </p>
      )}
      <h3>Pending invitations</h3>
      {listError && <Outcome error={listError} />}
      <RecordTable
        class="admin-invite-list"
        records={invites}
        empty="No pending invitations."
        headings={['Invitee', 'Role', 'Invited by', 'Expires', 'Actions']}
        row={(invite) => {
          const who = invite.is_multiuse ? 'Invitation link' : (invite.email ?? '');
          return (
            <tr
              key={`${invite.is_multiuse ? 'link' : 'email'}-${invite.id}`}
              data-admin-invite={invite.email ?? invite.link_url}
            >
              <td>
                {invite.is_multiuse ? (
                  <>
                    Link: <span class="link">{invite.link_url}</span>
                  </>
                ) : (
                  invite.email
                )}
              </td>
              <td>{roleName(invite.invited_as)}</td>
              <td>{userName(invite.invited_by_user_id) ?? invite.invited_by_user_id}</td>
              <td>{invite.expiry_date === null ? 'Never' : date(invite.expiry_date)}</td>
              <td>
                {!invite.is_multiuse && (
                  <button
                    class="admin-invite-resend"
                    aria-label={`Resend the invitation to ${who}`}
                    onClick={() => void act(() => client.invitations.resend(invite.id), `Invitation resent to ${who}`)}
                  >
                    Resend
                  </button>
                )}
                <button
                  class="admin-invite-revoke"
                  aria-label={
                    invite.is_multiuse ? `Revoke the link ${invite.link_url ?? ''}` : `Revoke the invitation to ${who}`
                  }
                  onClick={() =>
                    void act(
                      () => client.invitations.revoke(invite.id, invite.is_multiuse),
                      invite.is_multiuse ? 'Invitation link revoked' : `Invitation to ${who} revoked`,
                    )
                  }
                >
                  Revoke
                </button>
              </td>
            </tr>
          );
        }}
      />
    </section>
  );
}
