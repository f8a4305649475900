export * from './catalog.js';
export * from './client.js';
export * from './databases.js';
export * from './devorg.js';
export * from './infra.js';
export * from './processes.js';
export * from './stack.js';
export * from './private-infra.js';
