/**
 * The administrators' pages on the settings page (loaded only when an administrator opens the settings): the
 * organization's settings and its people. What they show comes from the admin store (admin/store.ts) and the
 * people of the main store, kept current by events, so a change made elsewhere shows here too.
 */
import { ROLE_LABELS, ROLE_MEMBER, ROLES as ALL_ROLES } from '@confab/zulip';
import { useState } from 'preact/hooks';
import * as client from '../lib/client';
import { channelName, streams, users } from '../store/store';
import type { User } from '../store/model';
import { Field } from '../ui/field';
import { Outcome, useAction } from '../ui/outcome';
import { CustomEmoji } from './emoji';
import { ProfileFields } from './profile-fields';
import { defaultChannels, everyone, linkifiers, realmSettings, systemGroups } from '../store/admin';
import { Invitations } from './invitations';
import { DataExport } from './export';

/** Zulip's system groups an organization permission may name here, by what the page calls them. */
const PERMISSION_GROUPS: [string, string][] = [
  ['role:everyone', 'Everyone, including guests'],
  ['role:members', 'Members'],
  ['role:fullmembers', 'Full members'],
  ['role:moderators', 'Moderators and above'],
  ['role:administrators', 'Administrators'],
  ['role:owners', 'Owners'],
  ['role:nobody', 'Nobody'],
];

/** A few group-valued permissions (PATCH /realm with `{"new": <group id>}`). */
const PERMISSIONS: [string, string][] = [
  ['can_invite_users_group', 'Who can invite people'],
  ['can_create_public_channel_group', 'Who can create public channels'],
  ['can_add_custom_emoji_group', 'Who can add custom emoji'],
];

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function OrganizationSettings() {
  const settings = realmSettings.value;
  const [name, setName] = useState(text(settings.realm_name));
  const [description, setDescription] = useState(text(settings.realm_description));
  const { ok, error, run } = useAction();
  const groups = systemGroups.value;
  const patch = (params: Record<string, string | number | boolean | object>, done: string) =>
    void run(() => client.organization.edit(params), done);
  return (
    <section aria-labelledby="admin-org-heading" class="admin-org">
      <h2 id="admin-org-heading">Organization settings</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          patch({ name: name.trim(), description }, 'Organization profile saved');
        }}
      >
        <Field id="admin-org-name" label="Organization name" value={name} onValue={setName} />
        <Field id="admin-org-description" label="Description" value={description} onValue={setDescription} multiline />
        <button id="admin-org-save" type="submit">
          Save profile
        </button>
      </form>
      <label class="check">
        <input
          id="admin-read-receipts"
          type="checkbox"
          checked={settings.realm_enable_read_receipts === true}
          onChange={(e) => patch({ enable_read_receipts: e.currentTarget.checked }, 'Read receipts setting saved')}
        />
        Read receipts (people see who has read a message)
      </label>
      {PERMISSIONS.map(([setting, label]) => (
        <div key={setting}>
          <label for={`admin-${setting}`}>{label}</label>
          <select
            id={`admin-${setting}`}
            value={
              typeof settings[`realm_${setting}`] === 'number' ? String(settings[`realm_${setting}`] as number) : ''
            }
            onChange={(e) => patch({ [setting]: { new: Number(e.currentTarget.value) } }, `${label}: saved`)}
          >
            {PERMISSION_GROUPS.filter(([group]) => groups.has(group)).map(([group, text]) => (
              <option key={group} value={String(groups.get(group))}>
                {text}
              </option>
            ))}
          </select>
        </div>
      ))}
      <Outcome ok={ok} error={error} />
    </section>
  );
}

const ROLES: [number, string][] = ALL_ROLES.map((role) => [role, ROLE_LABELS[role]]);

function UserRow({ user, act }: { user: User; act: (run: () => Promise<unknown>, done: string) => void }) {
  const active = user.is_active !== false;
  return (
    <tr data-admin-user={user.email}>
      <td>{user.full_name}</td>
      <td>{user.email}</td>
      <td>
        <label class="visually-hidden" for={`admin-role-${user.user_id}`}>
          Role of {user.full_name}
        </label>
        <select
          id={`admin-role-${user.user_id}`}
          class="admin-role"
          value={String(user.role ?? ROLE_MEMBER)}
          onChange={(e) =>
            act(
              () => client.organization.users.role(user.user_id, Number(e.currentTarget.value)),
              `${user.full_name}'s role changed`,
            )
          }
        >
          {ROLES.map(([role, text]) => (
            <option key={role} value={String(role)}>
              {text}
            </option>
          ))}
        </select>
      </td>
      <td>
        {active ? (
          <button
            class="admin-deactivate"
            aria-label={`Deactivate ${user.full_name}`}
            onClick={() =>
              act(() => client.organization.users.deactivate(user.user_id), `${user.full_name} deactivated`)
            }
          >
            Deactivate
          </button>
        ) : (
          <button
            class="admin-reactivate"
            aria-label={`Reactivate ${user.full_name}`}
            onClick={() =>
              act(() => client.organization.users.reactivate(user.user_id), `${user.full_name} reactivated`)
            }
          >
            Reactivate
          </button>
        )}
      </td>
    </tr>
  );
}

function Users() {
  const { ok, error, run } = useAction();
  const [email, setEmail] = useState('');
  const [fullName, setFullName] = useState('');
  const [password, setPassword] = useState('');
  const people = everyone(users.value).filter((u) => !u.is_bot);
  const act = (action: () => Promise<unknown>, done: string) => void run(action, done);
  return (
    <section aria-labelledby="admin-users-heading" class="admin-users">
      <h2 id="admin-users-heading">Users</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Account</th>
          </tr>
        </thead>
        <tbody>
          {people.map((u) => (
            <UserRow key={u.user_id} user={u} act={act} />
          ))}
        </tbody>
      </table>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(
            () => client.organization.users.create({ email: email.trim(), full_name: fullName.trim(), password }),
            `Account created for ${email.trim()}`,
          ).then((done) => {
            if (!done) return;
            setEmail('');
            setFullName('');
            setPassword('');
          });
        }}
      >
        <h3>Create an account</h3>
        <Field id="admin-new-email" label="Email" type="email" value={email} onValue={setEmail} />
        <Field id="admin-new-name" label="Full name" value={fullName} onValue={setFullName} />
        <Field
          id="admin-new-password"
          label="Password"
          type="password"
          autoComplete="new-password"
          value={password}
          onValue={setPassword}
        />
        <button id="admin-new-create" type="submit">
          Create account
        </button>
      </form>
      <Outcome ok={ok} error={error} />
    </section>
  );
}

/** The channels new members join (POST and DELETE /default_streams). */
function DefaultChannels() {
  const { ok, error, run } = useAction();
  const [choice, setChoice] = useState('');
  const chosen = defaultChannels.value;
  const candidates = streams.value.filter((s) => !chosen.includes(s.stream_id) && !s.invite_only && !s.is_archived);
  return (
    <section aria-labelledby="admin-defaults-heading" class="admin-defaults">
      <h2 id="admin-defaults-heading">Default channels</h2>
      <p>New members join these channels.</p>
      <ul>
        {chosen.map((id) => (
          <li key={id} data-default-channel={channelName(id) ?? String(id)}>
            <span>#{channelName(id) ?? id}</span>
            <button
              class="admin-default-remove"
              aria-label={`Remove #${channelName(id) ?? id} from the default channels`}
              onClick={() =>
                void run(() => client.organization.defaultChannels.remove(id), `#${channelName(id) ?? id} removed`)
              }
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (choice) void run(() => client.organization.defaultChannels.add(Number(choice)), 'Default channel added');
        }}
      >
        <label for="admin-default-choice">Add a channel</label>
        <select id="admin-default-choice" value={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
          <option value="">Choose a channel</option>
          {candidates.map((s) => (
            <option key={s.stream_id} value={String(s.stream_id)}>
              #{s.name}
            </option>
          ))}
        </select>
        <button id="admin-default-add" type="submit">
          Add
        </button>
      </form>
      <Outcome ok={ok} error={error} />
    </section>
  );
}

/** Linkifiers (POST /realm/filters, DELETE /realm/filters/{id}): patterns the server turns into links. */
function Linkifiers() {
  const { ok, error, run } = useAction();
  const [pattern, setPattern] = useState('');
  const [template, setTemplate] = useState('');
  return (
    <section aria-labelledby="admin-linkifiers-heading" class="admin-linkifiers">
      <h2 id="admin-linkifiers-heading">Linkifiers</h2>
      <ul>
        {linkifiers.value.map((l) => (
          <li key={l.id} data-linkifier={l.pattern}>
            <code>{l.pattern}</code> → <code>{l.url_template}</code>
            <button
              class="admin-linkifier-remove"
              aria-label={`Remove the linkifier ${l.pattern}`}
              onClick={() => void run(() => client.organization.linkifiers.remove(l.id), 'Linkifier removed')}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => client.organization.linkifiers.add(pattern, template), 'Linkifier added').then((done) => {
            if (!done) return;
            setPattern('');
            setTemplate('');
          });
        }}
      >
        <Field id="admin-linkifier-pattern" label="Pattern" value={pattern} onValue={setPattern} />
        <Field id="admin-linkifier-template" label="URL template" value={template} onValue={setTemplate} />
        <button id="admin-linkifier-add" type="submit">
          Add linkifier
        </button>
      </form>
      <Outcome ok={ok} error={error} />
    </section>
  );
}

/** The administrators' part of the settings page. */
export default function AdminPages() {
  return (
    <div class="admin-pages">
      <OrganizationSettings />
      <Users />
      <DefaultChannels />
      <Linkifiers />
      <Invitations />
      <DataExport />
      <CustomEmoji />
      <ProfileFields />
    </div>
  );
}
