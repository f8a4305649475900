export * from './bus.js';
export * from './dedupe.js';
export * from './envelope.js';
export * from './relay.js';
export * as contracts from './contracts/index.js';
export * from './metrics.js';
export * from './causal.js';
export * from './unit-of-work.js';
export * as internal from './internal.js';
