export * from './realms.js';
export * from './users.js';
