export * from './groups.js';
export * from './meeting_provider.js';
export * from './navigation_views.js';
export * from './push_devices.js';
export * from './realms.js';
export * from './user_settings.js';
export * from './users.js';
