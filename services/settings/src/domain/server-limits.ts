/** Zulip API compatibility: clients decide what they may use by this number. */
export const FEATURE_LEVEL = 496;
export const SERVICE_VERSION = '11.0-confab-0.1.0';

/** Text limits the initial state announces (Zulip's defaults, in Unicode code points). */
export const TEXT_LIMITS = {
  max_message_length: 10_000,
  max_topic_length: 60,
  max_stream_name_length: 60,
  max_stream_description_length: 1024,
  max_channel_folder_name_length: 60,
  max_channel_folder_description_length: 1024,
} as const;
