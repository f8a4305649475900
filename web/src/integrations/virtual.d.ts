/** Built by vite.config.ts from the integrations library: each integration's event names, by URL name. */
declare module 'virtual:integration-events' {
  const events: Record<string, readonly string[]>;
  export default events;
}
