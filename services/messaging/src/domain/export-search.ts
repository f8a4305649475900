import { invalid } from '@confab/errors';

/**
 * Zulip's export_search management command, for legal requests: the organization's messages matching keywords (in
 * content or topic, any of them), senders or recipients, and a time window, as rows of JSON or CSV.
 */

export interface ExportSearchFilter {
  realmId: number;
  /** Any of them, case-insensitively, in the content or the topic. */
  keywords: string[];
  /** Delivery emails, case-insensitively. */
  senders: string[];
  /** Delivery emails of users who received the messages (a superset of --sender: senders receive what they send). */
  recipients: string[];
  /** Sent strictly after / before. */
  after: Date | null;
  before: Date | null;
}

/** A matching message with what its row shows. */
export interface FoundMessage {
  id: number;
  dateSent: Date;
  sender: { fullName: string; email: string };
  /** A channel message's channel name and topic; a direct message's participants. */
  channel: { name: string; topic: string } | null;
  participants: { fullName: string; email: string }[];
  content: string;
  editHistory: unknown;
  /** The path ids of the uploads the message links (for --write-attachments). */
  attachments: string[];
}

/** The search's storage (a port this domain owns): messages in date order, a page at a time. */
export interface ExportSearchStore {
  search(
    filter: ExportSearchFilter,
    afterId: { dateSent: Date; id: number } | null,
    limit: number,
  ): Promise<FoundMessage[]>;
}

/** Zulip requires at least one limit, so nobody exports a whole organization by mistake. */
export function checkLimits(filter: ExportSearchFilter): void {
  if (
    filter.keywords.length === 0 &&
    filter.senders.length === 0 &&
    filter.recipients.length === 0 &&
    filter.after === null &&
    filter.before === null
  )
    throw invalid('One or more limits are required!');
  if (filter.senders.length > 0 && filter.recipients.length > 0)
    throw invalid('--sender and --recipient cannot be given together');
}

/** Python's email.headerregistry.Address: the display name quoted when it holds a special character. */
export function formatAddress(fullName: string, email: string): string {
  const name = /[()<>[\]:;@\\,."]/.test(fullName) ? `"${fullName.replace(/(["\\])/g, '\\$1')}"` : fullName;
  return name === '' ? email : `${name} <${email}>`;
}

export const COLUMNS = ['id', 'timestamp (UTC)', 'sender', 'recipient', 'content', 'edit history'] as const;
export type ExportRow = Record<(typeof COLUMNS)[number], string>;

/** Zulip's transform_message. */
export function exportRow(m: FoundMessage): ExportRow {
  const recipient = m.channel
    ? `#${m.channel.name} > ${m.channel.topic}`
    : [...m.participants]
        .sort((a, b) => (a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : 0))
        .map((p) => formatAddress(p.fullName, p.email))
        .join(', ');
  return {
    id: String(m.id),
    'timestamp (UTC)': m.dateSent.toISOString().slice(0, 19).replace('T', ' '),
    sender: formatAddress(m.sender.fullName, m.sender.email),
    recipient,
    content: m.content,
    'edit history': m.editHistory === null || m.editHistory === undefined ? '' : JSON.stringify(m.editHistory),
  };
}

/** One CSV field as Python's csv module writes it (quoted when it holds a comma, quote or line break). */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvLine(values: readonly string[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

export const SEARCH_PAGE = 1000;

/** Every matching message, oldest first, a page at a time (a legal hold can be large). */
export async function* searchMessages(
  store: ExportSearchStore,
  filter: ExportSearchFilter,
): AsyncGenerator<FoundMessage> {
  checkLimits(filter);
  let after: { dateSent: Date; id: number } | null = null;
  for (;;) {
    const page = await store.search(filter, after, SEARCH_PAGE);
    for (const m of page) yield m;
    if (page.length < SEARCH_PAGE) return;
    const last = page[page.length - 1]!;
    after = { dateSent: last.dateSent, id: last.id };
  }
}

/**
 * Where an upload of an exported message is written under --write-attachments: its path id below the directory, as
 * Zulip's export_search does; null for a path id that would leave the directory (a stored path id never should).
 */
export function attachmentTarget(dir: string, pathId: string, join: (...parts: string[]) => string): string | null {
  const parts = pathId.split('/');
  if (pathId.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\'))) return null;
  return join(dir, ...parts);
}
