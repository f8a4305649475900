-- Message retention (Zulip's archive_messages): the organization's retention in the realms copy (realm.updated
-- carries it), and the archive the daily job moves expired messages to, kept MESSAGING_ARCHIVE_VACUUM_DAYS for a
-- restore before it is purged. The archive tables copy the live tables' columns: a message's archived rows are
-- found by its id, a batch's messages by archive_transaction_id.
ALTER TABLE "realms" ADD COLUMN     "message_retention_days" INTEGER;

-- CreateTable
CREATE TABLE "archive_transactions" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "type" INTEGER NOT NULL,
    "timestamp" TIMESTAMPTZ(6) NOT NULL,
    "restored" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "archive_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "archived_messages" (
    "id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "sender_id" INTEGER NOT NULL,
    "recipient_id" INTEGER NOT NULL,
    "channel_id" INTEGER,
    "topic" TEXT NOT NULL,
    "topic_key" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "rendered_content" TEXT NOT NULL,
    "date_sent" TIMESTAMPTZ(6) NOT NULL,
    "sending_client" TEXT NOT NULL,
    "is_me_message" BOOLEAN NOT NULL,
    "has_attachment" BOOLEAN NOT NULL,
    "has_image" BOOLEAN NOT NULL,
    "has_link" BOOLEAN NOT NULL,
    "last_edit_time" TIMESTAMPTZ(6),
    "edit_history" JSONB,
    "has_submessages" BOOLEAN NOT NULL,
    "archive_transaction_id" INTEGER NOT NULL,

    CONSTRAINT "archived_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "archived_user_messages" (
    "user_id" INTEGER NOT NULL,
    "message_id" INTEGER NOT NULL,
    "flags" INTEGER NOT NULL,

    CONSTRAINT "archived_user_messages_pkey" PRIMARY KEY ("user_id","message_id")
);

-- CreateTable
CREATE TABLE "archived_reactions" (
    "id" INTEGER NOT NULL,
    "message_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "emoji_name" TEXT NOT NULL,
    "emoji_code" TEXT NOT NULL,
    "reaction_type" TEXT NOT NULL,

    CONSTRAINT "archived_reactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "archived_submessages" (
    "id" INTEGER NOT NULL,
    "message_id" INTEGER NOT NULL,
    "sender_id" INTEGER NOT NULL,
    "msg_type" TEXT NOT NULL,
    "content" TEXT NOT NULL,

    CONSTRAINT "archived_submessages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "archived_attachments" (
    "id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "owner_id" INTEGER NOT NULL,
    "file_name" TEXT NOT NULL,
    "path_id" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "content_type" TEXT NOT NULL,
    "create_time" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "archived_attachments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "archived_attachment_messages" (
    "attachment_id" INTEGER NOT NULL,
    "message_id" INTEGER NOT NULL,

    CONSTRAINT "archived_attachment_messages_pkey" PRIMARY KEY ("attachment_id","message_id")
);

-- CreateIndex
CREATE INDEX "archive_transactions_realm_id_idx" ON "archive_transactions"("realm_id");

-- CreateIndex
CREATE INDEX "archive_transactions_timestamp_idx" ON "archive_transactions"("timestamp");

-- CreateIndex
CREATE INDEX "archived_messages_archive_transaction_id_idx" ON "archived_messages"("archive_transaction_id");

-- CreateIndex
CREATE INDEX "archived_messages_recipient_id_idx" ON "archived_messages"("recipient_id");

-- CreateIndex
CREATE INDEX "archived_user_messages_message_id_idx" ON "archived_user_messages"("message_id");

-- CreateIndex
CREATE INDEX "archived_reactions_message_id_idx" ON "archived_reactions"("message_id");

-- CreateIndex
CREATE INDEX "archived_submessages_message_id_idx" ON "archived_submessages"("message_id");

-- CreateIndex
CREATE INDEX "archived_attachments_path_id_idx" ON "archived_attachments"("path_id");

-- CreateIndex
CREATE INDEX "archived_attachment_messages_message_id_idx" ON "archived_attachment_messages"("message_id");
