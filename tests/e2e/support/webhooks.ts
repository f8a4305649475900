import { request } from 'node:http';
import type { World } from '@confab/devkit';
import { expectSuccess } from './expect';
import { system } from './system';

/** Incoming webhook requests as providers send them, and what their bots posted (the webhooks e2e files). */

export interface HookAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: Record<string, any>;
}

export interface HookOptions {
  method?: string;
  query?: Record<string, string>;
  body?: string;
  headers?: Record<string, string>;
}

/** A request to the gateway as a provider sends it: any method, body and headers, in the world's organization. */
export function hookRequest(world: World, path: string, options: HookOptions = {}): Promise<HookAnswer> {
  const url = new URL(`/api/v1/external/${path}`, system().gatewayUrl);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers: Record<string, string> = {
    host: world.host,
    'user-agent': 'ProviderHookshot/1.0',
    ...options.headers,
  };
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: Record<string, any> = {};
        try {
          parsed = JSON.parse(text) as Record<string, any>;
        } catch {
          // Not JSON: a challenge answered as text, or a HEAD.
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A JSON body with its content type. */
export const jsonBody = (value: unknown) => ({
  body: JSON.stringify(value),
  headers: { 'content-type': 'application/json' },
});

export interface HookBot {
  id: number;
  email: string;
  apiKey: string;
}

/** An incoming webhook bot of hamlet's. */
export async function createHookBot(world: World, shortName: string): Promise<HookBot> {
  const created = await world
    .as('hamlet')
    .post('/bots', { full_name: `Hook ${shortName}`, short_name: shortName, bot_type: 2 });
  expect(created.status).toBe(200);
  const id = created.body.user_id as number;
  const bots = await world.as('hamlet').get('/users', { include_custom_profile_fields: false });
  const email = (bots.body.members as { user_id: number; email: string }[]).find((u) => u.user_id === id)!.email;
  return { id, email, apiKey: created.body.api_key as string };
}

/** The newest messages the bot sent, as hamlet (its owner) reads them back, in Markdown. */
export async function hookBotMessages(world: World, bot: HookBot, count = 1): Promise<Record<string, any>[]> {
  const read = await world.as('hamlet').get('/messages', {
    anchor: 'newest',
    num_before: count,
    num_after: 0,
    apply_markdown: false,
    allow_empty_topic_name: true,
    narrow: JSON.stringify([{ operator: 'sender', operand: bot.id }]),
  });
  expectSuccess(read, 'GET', '/messages');
  return read.body.messages as Record<string, any>[];
}
