/** What a client asked for when it registered a queue; fixed for the queue's life (Zulip's ClientDescriptor). */
export interface QueueDescriptor {
  userId: number;
  realmId: number;
  /** The user's role at registration (peer events for public channels skip guests). */
  role: number;
  /** null: every event type. */
  eventTypes: string[] | null;
  narrow: [string, string][];
  allPublicStreams: boolean;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  capabilities: Capabilities;
  /** How long the queue lives unpolled, in ms (the client's idle_queue_timeout); absent: the server's default. */
  idleTimeoutMs?: number;
}

/** The client_capabilities that change what a queue receives. */
export interface Capabilities {
  bulkMessageDeletion: boolean;
  streamTypingNotifications: boolean;
  userSettingsObject: boolean;
  emptyTopicName: boolean;
  includeDeactivatedGroups: boolean;
  archivedChannels: boolean;
}

export const CAPABILITY_NAMES: Record<keyof Capabilities, string> = {
  bulkMessageDeletion: 'bulk_message_deletion',
  streamTypingNotifications: 'stream_typing_notifications',
  userSettingsObject: 'user_settings_object',
  emptyTopicName: 'empty_topic_name',
  includeDeactivatedGroups: 'include_deactivated_groups',
  archivedChannels: 'archived_channels',
};

export function capabilitiesFrom(raw: Record<string, unknown>): Capabilities {
  const on = (name: string) => raw[name] === true;
  return {
    bulkMessageDeletion: on('bulk_message_deletion'),
    streamTypingNotifications: on('stream_typing_notifications'),
    userSettingsObject: on('user_settings_object'),
    emptyTopicName: on('empty_topic_name'),
    includeDeactivatedGroups: on('include_deactivated_groups'),
    archivedChannels: on('archived_channels'),
  };
}

/** Queues that see public-channel messages they are not subscribed to (Zulip's realm_clients_all_streams). */
export function wantsAllPublicStreams(d: QueueDescriptor): boolean {
  return d.allPublicStreams || d.narrow.length > 0;
}

export function acceptsType(d: QueueDescriptor, type: string): boolean {
  return d.eventTypes === null || d.eventTypes.includes(type);
}
