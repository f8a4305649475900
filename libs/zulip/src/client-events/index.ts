/**
 * Zulip's client events: what GET /events hands a client, one union (Zulip's web app dispatches the same set in
 * server_events_dispatch.ts). The events service's builders return members of it; the web client's store reduces it.
 */
import type { ChannelEvents } from './channels.js';
import type { MessageEvents } from './messages.js';
import type { OrganizationEvents } from './organization.js';
import type { PeopleEvents } from './people.js';
import type { PersonalEvents } from './personal.js';

export type * from './channels.js';
export type * from './messages.js';
export type * from './organization.js';
export type * from './people.js';
export type * from './personal.js';
export type * from './records.js';

/** Sent when a long poll has waited its time without an event. */
export interface HeartbeatEvent {
  type: 'heartbeat';
}

export type ClientEvent =
  MessageEvents | ChannelEvents | PeopleEvents | PersonalEvents | OrganizationEvents | HeartbeatEvent;

/** An event as a client receives it: with its id in the queue. */
export type ReceivedEvent = ClientEvent & { id: number };

/** The event types (`message`, `realm_user`, …). */
export type ClientEventType = ClientEvent['type'];

/** The events of one type. */
export type EventOfType<T extends ClientEventType> = Extract<ClientEvent, { type: T }>;

/** The end of an exhaustive switch: a new member of the union that is not handled does not compile. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
