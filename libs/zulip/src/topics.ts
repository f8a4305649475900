/** What Zulip puts in front of a resolved topic's name (RESOLVED_TOPIC_PREFIX): a check mark and a space. */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

/** Whether a topic is resolved (its name starts with the prefix). */
export const isResolvedTopic = (topic: string): boolean => topic.startsWith(RESOLVED_TOPIC_PREFIX);
