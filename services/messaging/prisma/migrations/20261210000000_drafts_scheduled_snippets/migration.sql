-- AlterTable
ALTER TABLE "users" ADD COLUMN     "enable_drafts_synchronization" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "drafts" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "to" INTEGER[],
    "topic" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "last_edit_time" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "drafts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduled_messages" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "sender_id" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "channel_id" INTEGER,
    "user_ids" INTEGER[],
    "topic" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "rendered_content" TEXT NOT NULL,
    "scheduled_at" TIMESTAMPTZ(6) NOT NULL,
    "read_by_sender" BOOLEAN,
    "sending_client" TEXT NOT NULL,
    "delivered" BOOLEAN NOT NULL DEFAULT false,
    "delivered_message_id" INTEGER,
    "failed" BOOLEAN NOT NULL DEFAULT false,
    "failure_message" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scheduled_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "saved_snippets" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "date_created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "saved_snippets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "drafts_user_id_last_edit_time_idx" ON "drafts"("user_id", "last_edit_time");

-- CreateIndex
CREATE INDEX "scheduled_messages_sender_id_scheduled_at_idx" ON "scheduled_messages"("sender_id", "scheduled_at");

-- CreateIndex
CREATE INDEX "scheduled_messages_scheduled_at_idx" ON "scheduled_messages"("scheduled_at");

-- CreateIndex
CREATE INDEX "saved_snippets_user_id_idx" ON "saved_snippets"("user_id");

