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
  /** Presence events without the deprecated email (absent on queues registered before it was kept). */
  slimPresence?: boolean;
  capabilities: Capabilities;
  /** How long the queue lives unpolled, in ms (the client's idle_queue_timeout); absent: the server's default. */
  idleTimeoutMs?: number;
}

/**
 * Zulip's client_capabilities (every one Zulip 11 knows); each is false unless the client declares it. Queues
 * registered before a capability was kept lack it, which reads as false. docs/clients.md says what each changes.
 */
export interface Capabilities {
  notificationSettingsNull: boolean;
  bulkMessageDeletion: boolean;
  userAvatarUrlFieldOptional: boolean;
  streamTypingNotifications: boolean;
  userSettingsObject: boolean;
  linkifierUrlTemplate: boolean;
  userListIncomplete: boolean;
  includeDeactivatedGroups: boolean;
  archivedChannels: boolean;
  emptyTopicName: boolean;
  simplifiedPresenceEvents: boolean;
}

export const CAPABILITY_NAMES: Record<keyof Capabilities, string> = {
  notificationSettingsNull: 'notification_settings_null',
  bulkMessageDeletion: 'bulk_message_deletion',
  userAvatarUrlFieldOptional: 'user_avatar_url_field_optional',
  streamTypingNotifications: 'stream_typing_notifications',
  userSettingsObject: 'user_settings_object',
  linkifierUrlTemplate: 'linkifier_url_template',
  userListIncomplete: 'user_list_incomplete',
  includeDeactivatedGroups: 'include_deactivated_groups',
  archivedChannels: 'archived_channels',
  emptyTopicName: 'empty_topic_name',
  simplifiedPresenceEvents: 'simplified_presence_events',
};

export function capabilitiesFrom(raw: Record<string, unknown>): Capabilities {
  const out = {} as Capabilities;
  for (const [key, name] of Object.entries(CAPABILITY_NAMES)) out[key as keyof Capabilities] = raw[name] === true;
  return out;
}

/** Queues that see public-channel messages they are not subscribed to (Zulip's realm_clients_all_streams). */
export function wantsAllPublicStreams(d: QueueDescriptor): boolean {
  return d.allPublicStreams || d.narrow.length > 0;
}

export function acceptsType(d: QueueDescriptor, type: string): boolean {
  return d.eventTypes === null || d.eventTypes.includes(type);
}
