import { capabilitiesFrom, type QueueDescriptor } from '../src/domain/descriptor';
import type { QueueContext } from '../src/domain/shaping';

/** A queue of user 2 in realm 1 with Zulip's register defaults, the client capabilities given, and `overrides`. */
export function queue(
  overrides: Partial<QueueDescriptor> = {},
  capabilities: Record<string, boolean> = {},
): QueueDescriptor {
  return {
    userId: 2,
    realmId: 1,
    role: 400,
    eventTypes: null,
    narrow: [],
    allPublicStreams: false,
    applyMarkdown: false,
    clientGravatar: true,
    capabilities: capabilitiesFrom(capabilities),
    ...overrides,
  };
}

/** What an event builder is told about the queue it shapes for. */
export const ctx = (q: QueueDescriptor, queueId = 'q1'): QueueContext => ({
  queueId,
  queue: q,
  emptyTopicDisplayName: 'general chat',
});
