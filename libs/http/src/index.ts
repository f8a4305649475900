export * from './app.js';
export * from './body.js';
export * from './params.js';
export * from './router.js';
export * from './process.js';
export * from './metrics.js';
export * from './html.js';
export * from './service-client.js';
