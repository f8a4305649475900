-- Zulip's system bots (the Notification Bot): stored per organization, listed as cross-realm bots.
ALTER TABLE "users" ADD COLUMN "is_system_bot" BOOLEAN NOT NULL DEFAULT false;
