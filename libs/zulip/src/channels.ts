import { ADMINISTRATORS, FULL_MEMBERS, MODERATORS } from './system-groups.js';

/** Zulip's legacy Stream.stream_post_policy values, still sent beside can_send_message_group for older clients. */
export const STREAM_POST_POLICY_EVERYONE = 1;
export const STREAM_POST_POLICY_ADMINS = 2;
export const STREAM_POST_POLICY_RESTRICT_NEW_MEMBERS = 3;
export const STREAM_POST_POLICY_MODERATORS = 4;

/**
 * The legacy stream_post_policy for who may post (can_send_message_group as a system group's name; any other
 * value, a user-defined group or a set of members, reads as "everyone", as Zulip's
 * get_stream_post_policy_value_based_on_group_setting does). `is_announcement_only` is this being ADMINS.
 */
export function streamPostPolicy(canSendMessageGroup: unknown): number {
  switch (canSendMessageGroup) {
    case ADMINISTRATORS:
      return STREAM_POST_POLICY_ADMINS;
    case FULL_MEMBERS:
      return STREAM_POST_POLICY_RESTRICT_NEW_MEMBERS;
    case MODERATORS:
      return STREAM_POST_POLICY_MODERATORS;
    default:
      return STREAM_POST_POLICY_EVERYONE;
  }
}
