-- The organization's Notification Bot (settings' system bot) and who reads its notices of resolved topics.
ALTER TABLE "users" ADD COLUMN "is_system_bot" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "users" ADD COLUMN "resolved_topic_notice_auto_read_policy" TEXT NOT NULL DEFAULT 'except_followed';
