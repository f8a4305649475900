import { invalid } from '@confab/errors';

export type ChannelIndicator = string | number;

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** Zulip's extract_stream_indicator: a name, a JSON name, a JSON id, or a JSON list of exactly one of those. */
export function extractChannelIndicator(raw: string): ChannelIndicator {
  const parsed = parseJson(raw);
  if (!parsed.ok) return raw;
  let data = parsed.value;
  if (Array.isArray(data)) {
    if (data.length !== 1) throw invalid('Expected exactly one channel');
    data = data[0];
  }
  if (typeof data === 'string') return data;
  if (isInt(data)) return data;
  throw invalid('Invalid data type for channel');
}

/** Zulip's extract_private_recipients: JSON list of emails or of user ids, or a comma-separated string. */
export function extractDirectRecipients(raw: string): string[] | number[] {
  const parsed = parseJson(raw);
  let data: unknown = parsed.ok ? parsed.value : raw;
  if (typeof data === 'string') data = data.split(',');
  if (!Array.isArray(data)) throw invalid('Invalid data type for recipients');
  if (data.length === 0) return [];
  const mixed = () => invalid('Recipient lists may contain emails or user IDs, but not both.');
  if (typeof data[0] === 'string') {
    if (!data.every((d) => typeof d === 'string')) throw mixed();
    return [...new Set((data).map((e) => e.trim()))].filter(Boolean);
  }
  if (!isInt(data[0])) throw invalid('Invalid data type for recipients');
  if (!data.every(isInt)) throw mixed();
  return [...new Set(data)];
}
