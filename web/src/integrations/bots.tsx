/**
 * Bots and integrations (`#settings/your-bots`, loaded on first use): Zulip's "Add a new bot" for incoming webhooks
 * with its "Generate URL for an integration" — pick an integration from the catalog (search, category), a channel or a
 * DM to oneself, a topic and the events to send — and the list of one's bots, each incoming webhook bot with its URL
 * and a new key on demand (the URL changes with it). The server decides who may create bots (POST /bots) and
 * regenerate keys; the page offers the form only to those it lets, and shows its refusals as they come.
 */
import { useState } from 'preact/hooks';
import { CATALOG } from '@confab/integrations/catalog';
import * as client from '../lib/client';
import { realmSettings } from '../store/admin';
import { me, users } from '../store/store';
import { Outcome, useAction } from '../ui/outcome';
import { hintFor } from './hints';
import { canCreateIncomingWebhook, entryLabel, shortNameFor, webhookUrl, type UrlChoice } from './logic';
import { BOT_TYPE_INCOMING_WEBHOOK, bots, updateBot, userGroups, type Bot } from '../store/integrations';
import { Destination, IntegrationPicker } from './url-choice';
import './bots.css';

const BY_NAME = new Map(CATALOG.map((entry) => [entry.name, entry]));
const BOT_TYPES: Record<number, string> = {
  1: 'Generic bot',
  2: 'Incoming webhook',
  3: 'Outgoing webhook',
  4: 'Embedded bot',
};

/**
 * Where the URL starts: the address this page was opened at, which is the one the provider can reach (Zulip's
 * generator writes realm_url, the same address when the server's external URL is configured as it is reached).
 */
const realmBase = () => location.origin;

/** What URL a bot was given is not stored by the server (nor by Zulip): this browser remembers it, per bot. */
const remembered = (botId: number): UrlChoice | undefined => {
  try {
    const saved = localStorage.getItem(`confab.webhook.${botId}`);
    return saved ? (JSON.parse(saved) as UrlChoice) : undefined;
  } catch {
    return undefined;
  }
};
const remember = (botId: number, choice: UrlChoice) => {
  try {
    localStorage.setItem(`confab.webhook.${botId}`, JSON.stringify(choice));
  } catch {
    // Private browsing without storage: the URL is still shown now.
  }
};

/** Puts the URL on the clipboard (the Clipboard API, else the selection's copy where the API is not offered). */
async function copy(text: string, field: HTMLInputElement | null): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Refused (no permission): copy the selected field instead.
    }
  }
  field?.select();
  if (!document.execCommand('copy')) throw new Error('Copying was refused: select the URL and copy it yourself');
}

/** A bot's URL for its integration, with a copy button, where to paste it, and Basic credentials where needed. */
function WebhookUrl({ bot, choice }: { bot: Bot; choice: UrlChoice }) {
  const entry = BY_NAME.get(choice.integration);
  const [copied, setCopied] = useState('');
  const [field, setField] = useState<HTMLInputElement | null>(null);
  if (!entry) return null;
  const url = webhookUrl(realmBase(), entry, bot.api_key, choice);
  const fieldId = `webhook-url-${bot.user_id}`;
  return (
    <div class="webhook-url" data-integration={entry.name}>
      <label for={fieldId}>{entryLabel(entry)} URL</label>
      <div class="webhook-url-row">
        <input id={fieldId} class="webhook-url-value" readOnly value={url} ref={setField} />
        <button
          type="button"
          class="webhook-copy"
          onClick={() =>
            void copy(url, field).then(
              () => setCopied('URL copied'),
              (e: unknown) => setCopied(e instanceof Error ? e.message : String(e)),
            )
          }
        >
          Copy URL
        </button>
      </div>
      <p class="webhook-hint">{hintFor(entry)}</p>
      {entry.auth === 'basic' && (
        <p class="webhook-basic">
          {entry.displayName} signs in with HTTP basic authentication: the user name is{' '}
          <code>{bot.email || 'the bot’s email'}</code> and the password is the bot's API key,{' '}
          <code class="webhook-key">{bot.api_key}</code>.
        </p>
      )}
      {copied && (
        <p role="status" class="notice">
          {copied}
        </p>
      )}
    </div>
  );
}

/** The form of "Add a new bot" for incoming webhooks: integration, names, destination; then the bot's URL. */
function AddWebhookBot() {
  const [choice, setChoice] = useState<UrlChoice>({ integration: '' });
  const [fullName, setFullName] = useState('');
  const [shortName, setShortName] = useState('');
  const [edited, setEdited] = useState(false);
  const [created, setCreated] = useState<number | null>(null);
  const { ok, error, busy, run } = useAction();
  const entry = BY_NAME.get(choice.integration);
  const pick = (name: string) => {
    const next = BY_NAME.get(name)!;
    setChoice({ integration: name, streamId: choice.streamId, topic: choice.topic });
    if (!edited) {
      setFullName(`${next.displayName} Bot`);
      setShortName(shortNameFor(next.name));
    }
  };
  const create = () =>
    run(async () => {
      if (!entry) throw new Error('Choose an integration');
      const answer = await client.bots.create({
        full_name: fullName.trim(),
        short_name: shortName.trim(),
        bot_type: BOT_TYPE_INCOMING_WEBHOOK,
      });
      // The realm_bot event brings the rest (its email); the list shows the bot at once.
      updateBot({
        user_id: answer.user_id,
        api_key: answer.api_key,
        full_name: fullName.trim(),
        bot_type: BOT_TYPE_INCOMING_WEBHOOK,
        is_active: true,
        owner_id: me.value,
        email: bots.value.get(answer.user_id)?.email ?? '',
      });
      remember(answer.user_id, choice);
      setCreated(answer.user_id);
    }, `Bot created: ${fullName.trim()}`);
  const bot = created === null ? undefined : bots.value.get(created);
  return (
    <section aria-labelledby="add-bot-heading" class="add-bot">
      <h2 id="add-bot-heading">Add an incoming webhook</h2>
      <p>
        An incoming webhook bot posts what a service (GitHub, Jira, Grafana…) sends it. Choose the service, where its
        messages go, and paste the URL into the service.
      </p>
      <form
        class="add-bot-form"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <IntegrationPicker id="add-bot" value={choice.integration} onPick={pick} />
        <label for="add-bot-full-name">Bot's name</label>
        <input
          id="add-bot-full-name"
          required
          value={fullName}
          onInput={(e) => {
            setEdited(true);
            setFullName(e.currentTarget.value);
          }}
        />
        <label for="add-bot-short-name">Bot's email begins with</label>
        <input
          id="add-bot-short-name"
          required
          value={shortName}
          onInput={(e) => {
            setEdited(true);
            setShortName(e.currentTarget.value);
          }}
        />
        {entry && <Destination key={entry.name} id="add-bot" choice={choice} onChange={setChoice} />}
        <button id="add-bot-create" type="submit" disabled={busy}>
          Create bot
        </button>
      </form>
      <Outcome ok={ok} error={error} />
      {bot && <WebhookUrl bot={bot} choice={remembered(bot.user_id) ?? choice} />}
    </section>
  );
}

/** One bot of the list: an incoming webhook's URL (changeable here), and a new key. */
function BotItem({ bot }: { bot: Bot }) {
  const [choice, setChoice] = useState<UrlChoice | undefined>(() => remembered(bot.user_id));
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<UrlChoice>(choice ?? { integration: '' });
  const { ok, error, run } = useAction();
  const webhook = bot.bot_type === BOT_TYPE_INCOMING_WEBHOOK;
  const owner =
    bot.owner_id !== null && bot.owner_id !== me.value ? users.value.get(bot.owner_id)?.full_name : undefined;
  const regenerate = () =>
    run(async () => {
      const answer = await client.bots.regenerateApiKey(bot.user_id);
      updateBot({ user_id: bot.user_id, api_key: answer.api_key });
    }, `${bot.full_name} has a new API key: the old URL no longer works.`);
  const editorId = `bot-${bot.user_id}`;
  return (
    <li class="bot-item" data-bot={bot.full_name} data-bot-id={bot.user_id}>
      <div class="bot-head">
        <strong>{bot.full_name}</strong>
        <span class="description">
          {BOT_TYPES[bot.bot_type] ?? 'Bot'} · {bot.email}
          {owner ? ` · owned by ${owner}` : ''}
        </span>
      </div>
      {webhook && choice && !editing && <WebhookUrl bot={bot} choice={choice} />}
      {webhook && !choice && !editing && <p class="description">No integration URL made in this browser yet.</p>}
      {webhook && editing && (
        <form
          class="bot-url-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!BY_NAME.has(draft.integration)) return;
            remember(bot.user_id, draft);
            setChoice(draft);
            setEditing(false);
          }}
        >
          <IntegrationPicker
            id={editorId}
            value={draft.integration}
            onPick={(name) => setDraft({ integration: name, streamId: draft.streamId, topic: draft.topic })}
          />
          {BY_NAME.has(draft.integration) && (
            <Destination key={draft.integration} id={editorId} choice={draft} onChange={setDraft} />
          )}
          <button type="submit" class="bot-url-save" disabled={!BY_NAME.has(draft.integration)}>
            Show this URL
          </button>
        </form>
      )}
      <div class="bot-actions">
        {webhook && !editing && (
          <button type="button" class="bot-url-edit" onClick={() => setEditing(true)}>
            {choice ? 'Change the URL' : 'Generate URL for an integration'}
          </button>
        )}
        <button
          type="button"
          class="bot-regenerate"
          onClick={() => {
            if (window.confirm(`Generate a new API key for ${bot.full_name}? Its current URL stops working.`))
              void regenerate();
          }}
        >
          Generate a new API key
        </button>
      </div>
      <Outcome ok={ok} error={error} />
    </li>
  );
}

function BotList() {
  const list = [...bots.value.values()]
    .filter((bot) => bot.is_active !== false)
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <section aria-labelledby="bot-list-heading">
      <h2 id="bot-list-heading">Your bots</h2>
      {list.length === 0 ? (
        <p>No bots yet.</p>
      ) : (
        <ul class="bot-list">
          {list.map((bot) => (
            <BotItem key={bot.user_id} bot={bot} />
          ))}
        </ul>
      )}
    </section>
  );
}

export default function BotsPage() {
  const self = users.value.get(me.value);
  const allowed = canCreateIncomingWebhook(realmSettings.value, me.value, self?.is_bot === true, userGroups.value);
  return (
    <main class="settings-page bots-page" aria-labelledby="bots-title">
      <header>
        <h1 id="bots-title">Bots</h1>
        <a class="button" href="#settings">
          Back to settings
        </a>
      </header>
      {allowed ? (
        <AddWebhookBot />
      ) : (
        <section aria-labelledby="add-bot-heading">
          <h2 id="add-bot-heading">Add an incoming webhook</h2>
          <p class="bots-not-allowed">This organization does not let you create bots; ask an administrator.</p>
        </section>
      )}
      <BotList />
    </main>
  );
}
