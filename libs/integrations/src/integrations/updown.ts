import { unsupportedEvent, type Integration, type Json, type WebhookMessage } from '../framework.js';
import { strftime } from '../toolkit/dates.js';
import { int, str, strOrNone } from '../toolkit/wild.js';

/**
 * Updown (zerver/webhooks/updown): checks that went down or came back up (with how long they were down), each in
 * the topic of the checked URL; Updown sends a list of events, and each is a message.
 */

function part(value: number, name: string): string {
  if (value === 1) return `1 ${name} `;
  if (value > 1) return `${value} ${name}s `;
  return '';
}

/** 265 seconds as "4 minutes 25 seconds". */
function duration(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  return (part(days, 'day') + part(hours, 'hour') + part(minutes, 'minute') + part(rest, 'second')).trimEnd();
}

function upBody(event: Json): string {
  let body = 'Service is `up`';
  const downtime = event.downtime;
  if (strOrNone(downtime.started_at)) {
    body += ' again';
    const seconds = downtime.duration === null ? null : int(downtime.duration);
    if (seconds) {
      const text = duration(seconds);
      if (text) body += ` after ${text}`;
    }
  }
  return `${body}.`;
}

function downBody(event: Json): string {
  const startedAt = str(event.downtime.started_at);
  const date = new Date(startedAt);
  if (Number.isNaN(date.getTime())) throw new TypeError(`a date Updown does not send: ${startedAt}`);
  const error = strOrNone(event.downtime.error);
  return `Service is \`down\`. It returned a ${error ?? 'None'} error at ${strftime(date, '%Y-%m-%d %H:%M:%S %Z')}.`;
}

function eventMessage(event: Json): WebhookMessage {
  const name = str(event.event);
  const type = /^check.(.*)$/s.exec(name)?.[1];
  if (type !== 'up' && type !== 'down') return unsupportedEvent(name);
  const topic = str(event.check.url);
  return { topic, content: type === 'up' ? upBody(event) : downBody(event), event: type };
}

export const updown: Integration = {
  name: 'updown',
  webhookName: 'Updown',
  eventTypes: ['up', 'down'],
  handle(request) {
    const payload = request.json();
    if (!Array.isArray(payload)) throw new TypeError('a payload that is not a list');
    return payload.map(eventMessage);
  },
};
