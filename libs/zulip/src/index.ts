// Zulip's small wire vocabulary, pure (no I/O, no Node): docs/architecture.md, "libs/zulip".
export * from './channels.js';
export * from './flags.js';
export * from './json-text.js';
export * from './narrow-links.js';
export * from './narrow.js';
export * from './python.js';
export * from './roles.js';
export * from './system-groups.js';
export * from './topics.js';
export * from './client-events/index.js';
