-- Missed-message email (issue 29): who a message may email and why, and the batches that gather a user's emails
-- over their email_notifications_batching_period_seconds. The settings copy records when the settings it holds were
-- changed, so two consumers keeping it (push notifications and email) never put older settings over newer ones.
ALTER TABLE "notification_settings" ADD COLUMN "changed_at" TIMESTAMPTZ(6);

CREATE TABLE "email_batches" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "due_at" TIMESTAMPTZ(6) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_batches_pkey" PRIMARY KEY ("id")
);

-- At most one open batch per user: a message joins it, or opens the next one once it has closed.
CREATE UNIQUE INDEX "email_batches_open_user_key" ON "email_batches"("user_id") WHERE "status" = 'open';
CREATE INDEX "email_batches_status_due_at_idx" ON "email_batches"("status", "due_at");

CREATE TABLE "email_notifications" (
    "message_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "batch_id" INTEGER,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_notifications_pkey" PRIMARY KEY ("message_id", "user_id")
);

CREATE INDEX "email_notifications_user_id_message_id_idx" ON "email_notifications"("user_id", "message_id");
CREATE INDEX "email_notifications_batch_id_idx" ON "email_notifications"("batch_id");
CREATE INDEX "email_notifications_status_updated_at_idx" ON "email_notifications"("status", "updated_at");
