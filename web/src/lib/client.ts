/**
 * The one typed client of the server's API: each request the web client makes, named after its endpoint, with its
 * parameters and answer typed. Components call these instead of writing paths and parameters inline (lib/api.ts is
 * the transport: the session, CSRF, errors).
 */
import { api } from './api';

type Params = Parameters<typeof api.post>[1];
type Narrow = unknown[];
type Ok = Record<string, unknown>;
/** POST /messages/flags/narrow's answer. */
export interface FlagsNarrowAnswer {
  found_newest: boolean;
  last_processed_id: number | null;
}

const id = (value: number | string) => encodeURIComponent(String(value));

export const messages = {
  get: <M>(params: Params) => api.get<{ messages: M[]; found_oldest: boolean }>('/messages', params),
  getOne: (messageId: number, params: Params) =>
    api.get<{ message: { content: string } }>(`/messages/${messageId}`, params),
  send: (params: Params) => api.post<Ok>('/messages', params),
  edit: (messageId: number, params: Params) => api.patch<Ok>(`/messages/${messageId}`, params),
  delete: (messageId: number) => api.delete<Ok>(`/messages/${messageId}`),
  render: (content: string) => api.post<{ rendered: string }>('/messages/render', { content }),
  flags: (messageIds: number[], op: 'add' | 'remove', flag: string) =>
    api.post<Ok>('/messages/flags', { messages: messageIds, op, flag }),
  flagsNarrow: (params: Params & { narrow: Narrow }) => api.post<FlagsNarrowAnswer>('/messages/flags/narrow', params),
  react: (messageId: number, params: Params, on: boolean) =>
    on
      ? api.post<Ok>(`/messages/${messageId}/reactions`, params)
      : api.delete<Ok>(`/messages/${messageId}/reactions`, params),
  submessage: (messageId: number, content: string) =>
    api.post<Ok>('/submessage', { message_id: messageId, msg_type: 'widget', content }),
  typing: (params: Params) => api.post<Ok>('/typing', params),
  markAllRead: () => api.post<Ok>('/mark_all_as_read'),
  markChannelRead: (streamId: number | undefined) => api.post<Ok>('/mark_stream_as_read', { stream_id: streamId }),
  list: <M>(params: Params) => api.get<{ messages: M[] }>('/messages', params),
  markTopicRead: (streamId: number | undefined, topic: string | undefined) =>
    api.post<Ok>('/mark_topic_as_read', { stream_id: streamId, topic_name: topic }),
};

export const drafts = {
  create: (draft: object) => api.post<{ ids: number[] }>('/drafts', { drafts: [draft] }),
  edit: (draftId: number, draft: object) => api.patch<Ok>(`/drafts/${draftId}`, { draft }),
  delete: (draftId: number) => api.delete<Ok>(`/drafts/${draftId}`),
};

export const scheduledMessages = {
  create: (params: Params) => api.post<Ok>('/scheduled_messages', params),
  delete: (scheduledMessageId: number) => api.delete<Ok>(`/scheduled_messages/${scheduledMessageId}`),
};

export const me = {
  get: () => api.get<{ delivery_email?: string; email: string }>('/users/me'),
  presence: <P>() =>
    api.post<{ presences?: Record<string, P> }>('/users/me/presence', { status: 'active', slim_presence: true }),
  subscriptionProperties: (data: { stream_id: number; property: string; value: unknown }[]) =>
    api.post<Ok>('/users/me/subscriptions/properties', { subscription_data: data }),
  createChannel: (params: Params) => api.post<Ok>('/users/me/subscriptions', params),
  topics: (streamId: number) => api.get<{ topics: { name: string; max_id: number }[] }>(`/users/me/${streamId}/topics`),
  settings: (params: Params) => api.patch<Ok>('/settings', params),
  status: (params: Params) => api.post<Ok>('/users/me/status', params),
  topicPolicy: (streamId: number, topic: string, policy: number) =>
    api.post<Ok>('/user_topics', { stream_id: streamId, topic, visibility_policy: policy }),
  mute: (userId: number, on: boolean) =>
    on ? api.post<Ok>(`/users/me/muted_users/${userId}`) : api.delete<Ok>(`/users/me/muted_users/${userId}`),
  addAlertWord: (word: string) => api.post<Ok>('/users/me/alert_words', { alert_words: [word] }),
  removeAlertWord: (word: string) => api.delete<Ok>('/users/me/alert_words', { alert_words: [word] }),
  uploadAvatar: (form: FormData) => api.upload<Ok>('/users/me/avatar', form),
  deleteAvatar: () => api.delete<Ok>('/users/me/avatar'),
  fetchApiKey: (username: string, password: string) =>
    api.post<{ api_key: string }>('/fetch_api_key', { username, password }),
  regenerateApiKey: () => api.post<{ api_key: string }>('/users/me/api_key/regenerate'),
  subscribe: (name: string) => api.post<Ok>('/users/me/subscriptions', { subscriptions: [{ name }] }),
  unsubscribe: (name: string) => api.delete<Ok>('/users/me/subscriptions', { subscriptions: [name] }),
};

export const channels = {
  edit: (streamId: number, params: Params) => api.patch<Ok>(`/streams/${streamId}`, params),
  archive: (streamId: number) => api.delete<Ok>(`/streams/${streamId}`),
  members: (streamId: number) => api.get<{ subscribers: number[] }>(`/streams/${streamId}/members`),
};

export const userGroups = {
  list: <G>() => api.get<{ user_groups: G[] }>('/user_groups'),
  create: (params: Params) => api.post<Ok>('/user_groups/create', params),
  members: (groupId: number, change: { add?: number[]; delete?: number[] }) =>
    api.post<Ok>(`/user_groups/${groupId}/members`, change),
};

export const bots = {
  create: (params: Params) => api.post<{ user_id: number; api_key: string }>('/bots', params),
  regenerateApiKey: (botId: number) => api.post<{ api_key: string }>(`/bots/${botId}/api_key/regenerate`),
};

export const organization = {
  edit: (params: Params) => api.patch<Ok>('/realm', params),
  /** GET /server_settings: without the session (it is public), as the sign-in page reads it. */
  serverSettings: async (): Promise<Record<string, unknown>> => {
    const response = await fetch('/api/v1/server_settings', { credentials: 'omit' });
    return (await response.json()) as Record<string, unknown>;
  },
  users: {
    create: (params: Params) => api.post<Ok>('/users', params),
    role: (userId: number, role: number) => api.patch<Ok>(`/users/${userId}`, { role }),
    deactivate: (userId: number) => api.delete<Ok>(`/users/${userId}`),
    reactivate: (userId: number) => api.post<Ok>(`/users/${userId}/reactivate`),
  },
  defaultChannels: {
    add: (streamId: number) => api.post<Ok>('/default_streams', { stream_id: streamId }),
    remove: (streamId: number) => api.delete<Ok>('/default_streams', { stream_id: streamId }),
  },
  linkifiers: {
    add: (pattern: string, urlTemplate: string) =>
      api.post<Ok>('/realm/filters', { pattern, url_template: urlTemplate }),
    remove: (linkifierId: number) => api.delete<Ok>(`/realm/filters/${linkifierId}`),
  },
  emoji: {
    upload: (name: string, form: FormData) => api.upload<Ok>(`/realm/emoji/${id(name)}`, form),
    remove: (name: string) => api.delete<Ok>(`/realm/emoji/${id(name)}`),
  },
  exports: {
    list: <E>() => api.get<{ exports: E[] }>('/export/realm'),
    start: (exportType: number) => api.post<Ok>('/export/realm', { export_type: exportType }),
    delete: (exportId: number) => api.delete<Ok>(`/export/realm/${exportId}`),
  },
  profileFields: {
    list: <F>() => api.get<{ custom_fields: F[] }>('/realm/profile_fields'),
    create: (params: Params) => api.post<Ok>('/realm/profile_fields', params),
    edit: (fieldId: number, params: Params) => api.patch<Ok>(`/realm/profile_fields/${fieldId}`, params),
    delete: (fieldId: number) => api.delete<Ok>(`/realm/profile_fields/${fieldId}`),
    reorder: (order: number[]) => api.patch<Ok>('/realm/profile_fields', { order }),
  },
};

export const invitations = {
  list: <I>() => api.get<{ invites: I[] }>('/invites'),
  send: (params: Params) => api.post<Ok>('/invites', params),
  link: (params: Params) => api.post<{ invite_link: string }>('/invites/multiuse', params),
  resend: (inviteId: number) => api.post<Ok>(`/invites/${inviteId}/resend`),
  revoke: (inviteId: number, multiuse: boolean) =>
    api.delete<Ok>(multiuse ? `/invites/multiuse/${inviteId}` : `/invites/${inviteId}`),
};
