/**
 * The /register keys of Zulip features Confab does not have (no onboarding tours, reminders, GIPHY key, embedded
 * or incoming-webhook bot catalogues, billing): what Zulip answers for a server without them, so a client that asks
 * for those event types finds the keys it reads. The owning services' fragments are merged over these, so a service
 * that adds one of the features answers instead.
 */
const ABSENT: readonly [type: string, keys: Record<string, unknown>][] = [
  ['onboarding_steps', { onboarding_steps: [], navigation_tour_video_url: null }],
  ['reminders', { reminders: [] }],
  ['giphy', { giphy_api_key: '' }],
  ['realm_embedded_bots', { realm_embedded_bots: [] }],
  ['realm_incoming_webhook_bots', { realm_incoming_webhook_bots: [] }],
  ['realm_billing', { realm_billing: { has_pending_sponsorship_request: false } }],
];

/** The keys above for the types the client wants (null: every type). */
export function absentFeatureState(wanted: readonly string[] | null): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  for (const [type, keys] of ABSENT)
    if (wanted === null || wanted.includes(type)) Object.assign(state, structuredClone(keys));
  return state;
}
