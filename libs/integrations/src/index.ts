export * from './framework.js';
export * from './catalog.js';
export * from './registry.js';
export * from './run.js';
export * from './request.js';
export * from './toolkit/index.js';
