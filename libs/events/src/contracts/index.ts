export * from './groups.js';
export * from './realms.js';
export * from './user_settings.js';
export * from './users.js';
