import type { ApiClient, ApiResponse } from '@confab/devkit';
import { waitHandled } from './events';
import { expectSuccess } from './expect';
import { eventSchemaErrors, openApiErrors } from './openapi';
import { system } from './system';

export type ClientEvent = Record<string, any> & { id: number; type: string };

/** Fields Zulip sends that its OpenAPI description (feature level ~420) does not list. */
const UNDESCRIBED_FIELDS: Record<string, string[]> = { message: ['local_message_id'] };
/** Event types the description does not have at all (docs/api.md's neutral names). */
const UNDESCRIBED_TYPES = new Set(['has_meetingprovider_token']);

/** Initial-state fields newer than the description (docs/api.md's meeting provider; a newer personal setting). */
const NEWER_STATE = ['has_meetingprovider_token', 'meeting_provider'];
const NEWER_USER_SETTINGS = ['web_inbox_show_channel_folders'];

/** A successful POST /register that conforms to Zulip's description, apart from the fields listed above. */
export function expectRegistration(response: ApiResponse): void {
  expect({ status: response.status, result: response.body.result, msg: response.body.msg }).toEqual({
    status: 200,
    result: 'success',
    msg: '',
  });
  const body: Record<string, any> = { ...response.body };
  for (const key of NEWER_STATE) delete body[key];
  if (body.user_settings) {
    body.user_settings = { ...body.user_settings };
    for (const key of NEWER_USER_SETTINGS) delete body.user_settings[key];
  }
  expect(openApiErrors('POST', '/register', 200, body)).toEqual([]);
}

/** Checks one event against Zulip's description of its type. */
export function expectZulipEvent(event: ClientEvent): void {
  const copy: Record<string, unknown> = { ...event };
  for (const field of UNDESCRIBED_FIELDS[event.type] ?? []) delete copy[field];
  const errors = eventSchemaErrors(copy);
  if (errors === null) {
    expect(UNDESCRIBED_TYPES.has(event.type) ? event.type : `undescribed event ${event.type}`).toBe(event.type);
    return;
  }
  expect(errors).toEqual([]);
}

/** A registered queue and the client that owns it, polled the way Zulip's clients do. */
export class EventQueue {
  lastEventId: number;
  readonly seen: ClientEvent[] = [];

  constructor(
    readonly client: ApiClient,
    readonly queueId: string,
    readonly registration: Record<string, any>,
  ) {
    this.lastEventId = registration.last_event_id as number;
  }

  static async register(client: ApiClient, params: Record<string, unknown> = {}): Promise<EventQueue> {
    const response = await client.post('/register', params);
    expectRegistration(response);
    return new EventQueue(client, response.body.queue_id as string, response.body);
  }

  get(params: Record<string, unknown>): Promise<ApiResponse> {
    return this.client.get('/events', { queue_id: this.queueId, last_event_id: this.lastEventId, ...params });
  }

  /** One GET /events (blocking unless dont_block), acknowledging everything seen so far. */
  async poll(dontBlock = false): Promise<ClientEvent[]> {
    const response = await this.get({ dont_block: dontBlock });
    expect({ status: response.status, body: response.body }).toMatchObject({
      status: 200,
      body: { result: 'success' },
    });
    const events = response.body.events as ClientEvent[];
    for (const event of events) {
      expectZulipEvent(event);
      this.lastEventId = Math.max(this.lastEventId, event.id);
    }
    this.seen.push(...events);
    return events;
  }

  /** Polls until an event matching `match` has arrived (heartbeats and other events are kept in `seen`). */
  async next(match: (event: ClientEvent) => boolean = (e) => e.type !== 'heartbeat'): Promise<ClientEvent> {
    for (;;) {
      const found = this.seen.find(match);
      if (found) return found;
      await this.poll();
    }
  }

  /** Everything the queue holds right now, without waiting. */
  async drain(): Promise<ClientEvent[]> {
    const before = this.seen.length;
    await this.poll(true);
    return this.seen.slice(before);
  }

  async delete(): Promise<void> {
    const response = await this.client.delete('/events', { queue_id: this.queueId });
    expectSuccess(response, 'DELETE', '/events');
  }
}

/** Waits until the events service has handled a published event (then every queue has it or never will). */
export function handledByEvents(eventId: string, eventsUrl = system().serviceUrls.events!): Promise<void> {
  return waitHandled(eventsUrl, eventId, 10_000);
}
