import { ROLE_ADMINISTRATOR, ROLE_GUEST, ROLE_LABELS, ROLE_MEMBER, ROLE_MODERATOR } from '@confab/zulip';
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { login } from '../lib/api';
import * as client from '../lib/client';
import { errorText, Outcome } from '../ui/outcome';
import type { User } from '../store/model';
import { deliveryEmail } from '../store/personal';
import { isAdmin } from '../store/store';
import { AuthenticationMethods, HowYouSignIn, passwordEnabled } from '../auth-methods/auth-methods';
import { ApiKey } from './api-key';
import { AvatarSettings } from './avatar';
import { AlertWords, MutedUsers } from './muting';
import {
  ComposeSettings,
  DensitySettings,
  DisplaySettings,
  LanguageAndTimeSettings,
  NotificationSettings,
} from './preferences';
import { StatusSettings } from './status';

/**
 * Personal settings: one's name (PATCH /settings full_name) and password (old_password + new_password). A password
 * change ends every session of the user, this one too (the gateway's rule); the page signs in again with the new
 * password at once, so one stays signed in here, as in Zulip, while other browsers are signed out. The password form
 * is there only while the organization allows password sign-in (its `Email` authentication method).
 */
function Personal({ me }: { me: User }) {
  const [fullName, setFullName] = useState(me.full_name);
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [ok, setOk] = useState('');
  const [error, setError] = useState('');
  async function save(params: Record<string, string>, done: string) {
    setOk('');
    setError('');
    try {
      await client.me.settings(params);
      if (params.new_password) await login(me.email, params.new_password);
      setOk(done);
    } catch (e) {
      setError(errorText(e));
    }
  }
  return (
    <section aria-labelledby="personal-heading">
      <h2 id="personal-heading">Personal settings</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save({ full_name: fullName.trim() }, 'Name saved');
        }}
      >
        <label for="settings-full-name">Full name</label>
        <input id="settings-full-name" value={fullName} onInput={(e) => setFullName(e.currentTarget.value)} />
        <button id="settings-save-name" type="submit">
          Save name
        </button>
      </form>
      {passwordEnabled.value && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save({ old_password: oldPassword, new_password: newPassword }, 'Password changed').then(() => {
              setOldPassword('');
              setNewPassword('');
            });
          }}
        >
          <label for="settings-old-password">Current password</label>
          <input
            id="settings-old-password"
            type="password"
            autoComplete="current-password"
            value={oldPassword}
            onInput={(e) => setOldPassword(e.currentTarget.value)}
          />
          <label for="settings-new-password">New password</label>
          <input
            id="settings-new-password"
            type="password"
            autoComplete="new-password"
            value={newPassword}
            onInput={(e) => setNewPassword(e.currentTarget.value)}
          />
          <button id="settings-save-password" type="submit">
            Change password
          </button>
        </form>
      )}
      <Outcome ok={ok} error={error} />
    </section>
  );
}

interface Group {
  id: number;
  name: string;
  description: string;
  members: number[];
  is_system_group: boolean;
  deactivated?: boolean;
}

/** User groups (GET /user_groups): the organization's own groups, with their members; create, join and leave. */
function Groups({ me, users }: { me: number; users: Map<number, User> }) {
  const [groups, setGroups] = useState<Group[] | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [ok, setOk] = useState('');
  const [error, setError] = useState('');
  const load = () =>
    client.userGroups
      .list<Group>()
      .then((answer) => setGroups(answer.user_groups.filter((g) => !g.is_system_group && !g.deactivated)))
      .catch((e: unknown) => setError(errorText(e)));
  useEffect(() => void load(), []);
  async function act(run: () => Promise<unknown>, done: string) {
    setOk('');
    setError('');
    try {
      await run();
      setOk(done);
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  }
  return (
    <section aria-labelledby="groups-heading">
      <h2 id="groups-heading">User groups</h2>
      {groups === null ? (
        <p>Loading…</p>
      ) : groups.length === 0 ? (
        <p>No groups yet.</p>
      ) : (
        <ul class="groups">
          {groups.map((g) => {
            const member = g.members.includes(me);
            return (
              <li key={g.id} data-group={g.name}>
                <strong>@{g.name}</strong> {g.description && <span class="description">{g.description}</span>}
                <span class="members">
                  {g.members.map((id) => users.get(id)?.full_name ?? `user ${id}`).join(', ') || 'no members'}
                </span>
                <button
                  class={member ? 'leave-group' : 'join-group'}
                  onClick={() =>
                    void act(
                      () => client.userGroups.members(g.id, member ? { delete: [me] } : { add: [me] }),
                      member ? `Left @${g.name}` : `Joined @${g.name}`,
                    )
                  }
                >
                  {member ? 'Leave' : 'Join'}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act(
            () => client.userGroups.create({ name: name.trim(), description, members: [me] }),
            `Created @${name.trim()}`,
          ).then(() => {
            setName('');
            setDescription('');
          });
        }}
      >
        <label for="group-name">New group</label>
        <input id="group-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="group-description">Description</label>
        <input id="group-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        <button id="group-create" type="submit">
          Create group
        </button>
      </form>
      <Outcome ok={ok} error={error} />
    </section>
  );
}

interface Invite {
  id: number;
  invited_as: number;
  expiry_date: number | null;
  link_url?: string;
  is_multiuse: boolean;
}

const ROLES: [number, string][] = ([ROLE_MEMBER, ROLE_GUEST, ROLE_MODERATOR, ROLE_ADMINISTRATOR] as const).map(
  (role) => [role, ROLE_LABELS[role]],
);

/** Reusable invitation links (POST /invites/multiuse, GET /invites, DELETE /invites/multiuse/{id}). */
function Invitations() {
  const [invites, setInvites] = useState<Invite[] | null>(null);
  const [role, setRole] = useState<number>(ROLE_MEMBER);
  const [days, setDays] = useState(10);
  const [created, setCreated] = useState('');
  const [error, setError] = useState('');
  const load = () =>
    client.invitations
      .list<Invite>()
      .then((answer) => setInvites(answer.invites.filter((i) => i.is_multiuse)))
      .catch((e: unknown) => setError(errorText(e)));
  useEffect(() => void load(), []);
  async function create() {
    setError('');
    setCreated('');
    try {
      const answer = await client.invitations.link({
        invite_as: role,
        invite_expires_in_minutes: days * 24 * 60,
      });
      setCreated(answer.invite_link);
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  }
  return (
    <section aria-labelledby="invites-heading">
      <h2 id="invites-heading">Invitation links</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <label for="invite-role">Join as</label>
        <select id="invite-role" value={String(role)} onChange={(e) => setRole(Number(e.currentTarget.value))}>
          {ROLES.map(([value, label]) => (
            <option key={value} value={String(value)}>
              {label}
            </option>
          ))}
        </select>
        <label for="invite-days">Expires after (days)</label>
        <input
          id="invite-days"
          type="number"
          min={1}
          max={30}
          value={days}
          onInput={(e) => setDays(Number(e.currentTarget.value) || 1)}
        />
        <button id="invite-create" type="submit">
          Create link
        </button>
      </form>
      {created && (
        <p role="status" class="notice">
          New link: <output id="invite-link">{created}</output>
        </p>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {invites !== null && invites.length > 0 && (
        <ul class="invites">
          {invites.map((invite) => (
            <li key={invite.id} data-invite={invite.id}>
              <span class="link">{invite.link_url}</span>
              <span>{ROLES.find(([value]) => value === invite.invited_as)?.[1] ?? invite.invited_as}</span>
              <span>
                {invite.expiry_date === null
                  ? 'never expires'
                  : `expires ${new Date(invite.expiry_date * 1000).toLocaleDateString()}`}
              </span>
              <button
                class="revoke-invite"
                aria-label="Revoke invitation link"
                onClick={() =>
                  void client.invitations
                    .revoke(invite.id, true)
                    .then(load)
                    .catch((e: unknown) => setError(errorText(e)))
                }
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The administrators' pages, loaded on first use (their code is not part of the first view). */
function AdminSection() {
  const [Pages, setPages] = useState<ComponentType | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    import('../admin/admin')
      .then((module) => setPages(() => module.default))
      .catch((e: unknown) => setError(errorText(e)));
  }, []);
  if (Pages) return <Pages />;
  return error ? <Outcome error={error} /> : <p>Loading the organization's settings…</p>;
}

/**
 * The settings page: personal settings, how one signs in, the profile picture, notifications, display, muted people, alert words, the API key, user groups
 * and invitation links, the organization's authentication methods (owners switch them); for administrators, the organization's settings and users (admin/).
 */
export function SettingsPage({ me, users, onClose }: { me: number; users: Map<number, User>; onClose: () => void }) {
  const self = users.get(me) ?? { user_id: me, full_name: '', email: '' };
  return (
    <main class="settings-page" aria-labelledby="settings-title">
      <header>
        <h1 id="settings-title">Settings</h1>
        <button id="settings-close" onClick={onClose}>
          Back to messages
        </button>
      </header>
      <Personal me={self} />
      <HowYouSignIn email={deliveryEmail.value || self.email} />
      <AvatarSettings me={self} />
      <StatusSettings />
      <NotificationSettings />
      <DisplaySettings />
      <LanguageAndTimeSettings />
      <ComposeSettings />
      <DensitySettings />
      <MutedUsers />
      <AlertWords />
      <ApiKey />
      <section aria-labelledby="bots-link-heading">
        <h2 id="bots-link-heading">Bots and integrations</h2>
        <p>
          <a id="settings-bots" href="#settings/your-bots">
            Your bots and incoming webhooks
          </a>{' '}
          (GitHub, GitLab, Jira, Grafana… posting into channels)
        </p>
      </section>
      <Groups me={me} users={users} />
      <Invitations />
      <AuthenticationMethods />
      {isAdmin.value && <AdminSection />}
    </main>
  );
}
