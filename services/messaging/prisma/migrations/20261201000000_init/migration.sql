-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "realms" (
    "id" INTEGER NOT NULL,
    "string_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "empty_topic_display_name" TEXT NOT NULL,
    "mandatory_topics" BOOLEAN NOT NULL,
    "message_content_delete_limit_seconds" INTEGER,
    "waiting_period_threshold" INTEGER NOT NULL,
    "permissions" JSONB NOT NULL,
    "deactivated" BOOLEAN NOT NULL,

    CONSTRAINT "realms_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "email_key" TEXT NOT NULL,
    "delivery_email" TEXT NOT NULL,
    "full_name" TEXT NOT NULL,
    "role" INTEGER NOT NULL,
    "is_bot" BOOLEAN NOT NULL,
    "bot_type" INTEGER,
    "is_active" BOOLEAN NOT NULL,
    "date_joined" TIMESTAMPTZ(6) NOT NULL,
    "receives_typing_notifications" BOOLEAN NOT NULL DEFAULT true,
    "send_stream_typing_notifications" BOOLEAN NOT NULL DEFAULT true,
    "send_private_typing_notifications" BOOLEAN NOT NULL DEFAULT true,
    "automatically_follow_topics_policy" INTEGER NOT NULL DEFAULT 3,
    "automatically_unmute_topics_in_muted_streams_policy" INTEGER NOT NULL DEFAULT 2,
    "automatically_follow_topics_where_mentioned" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_groups" (
    "id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "is_system_group" BOOLEAN NOT NULL,
    "deactivated" BOOLEAN NOT NULL,
    "can_mention_group" JSONB NOT NULL,

    CONSTRAINT "user_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "group_members" (
    "group_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,

    CONSTRAINT "group_members_pkey" PRIMARY KEY ("group_id","user_id")
);

-- CreateTable
CREATE TABLE "recipients" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "type" INTEGER NOT NULL,
    "dm_key" TEXT,

    CONSTRAINT "recipients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channels" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "recipient_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "rendered_description" TEXT NOT NULL,
    "invite_only" BOOLEAN NOT NULL,
    "is_web_public" BOOLEAN NOT NULL,
    "history_public_to_subscribers" BOOLEAN NOT NULL,
    "message_retention_days" INTEGER,
    "topics_policy" TEXT NOT NULL DEFAULT 'inherit',
    "creator_id" INTEGER,
    "date_created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "first_message_id" INTEGER,
    "is_archived" BOOLEAN NOT NULL DEFAULT false,
    "folder_id" INTEGER,
    "permissions" JSONB NOT NULL,

    CONSTRAINT "channels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "channel_id" INTEGER NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "is_muted" BOOLEAN NOT NULL DEFAULT false,
    "pin_to_top" BOOLEAN NOT NULL DEFAULT false,
    "color" TEXT NOT NULL,
    "desktop_notifications" BOOLEAN,
    "audible_notifications" BOOLEAN,
    "push_notifications" BOOLEAN,
    "email_notifications" BOOLEAN,
    "wildcard_mentions_notify" BOOLEAN,

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "messages" (
    "id" SERIAL NOT NULL,
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
    "is_me_message" BOOLEAN NOT NULL DEFAULT false,
    "has_attachment" BOOLEAN NOT NULL DEFAULT false,
    "has_image" BOOLEAN NOT NULL DEFAULT false,
    "has_link" BOOLEAN NOT NULL DEFAULT false,
    "last_edit_time" TIMESTAMPTZ(6),

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_messages" (
    "user_id" INTEGER NOT NULL,
    "message_id" INTEGER NOT NULL,
    "flags" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "user_messages_pkey" PRIMARY KEY ("user_id","message_id")
);

-- CreateTable
CREATE TABLE "reactions" (
    "id" SERIAL NOT NULL,
    "message_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "emoji_name" TEXT NOT NULL,
    "emoji_code" TEXT NOT NULL,
    "reaction_type" TEXT NOT NULL,

    CONSTRAINT "reactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_topics" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "channel_id" INTEGER NOT NULL,
    "topic_name" TEXT NOT NULL,
    "topic_key" TEXT NOT NULL,
    "visibility_policy" INTEGER NOT NULL,
    "last_updated" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_topics_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attachments" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "owner_id" INTEGER NOT NULL,
    "file_name" TEXT NOT NULL,
    "path_id" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "content_type" TEXT NOT NULL,
    "create_time" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attachments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attachment_messages" (
    "attachment_id" INTEGER NOT NULL,
    "message_id" INTEGER NOT NULL,

    CONSTRAINT "attachment_messages_pkey" PRIMARY KEY ("attachment_id","message_id")
);

-- CreateTable
CREATE TABLE "outbox" (
    "id" BIGSERIAL NOT NULL,
    "event_id" UUID NOT NULL,
    "routing_key" TEXT NOT NULL,
    "envelope" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "processed_events" (
    "consumer" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "processed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer","event_id")
);

-- CreateIndex
CREATE INDEX "users_realm_id_email_key_idx" ON "users"("realm_id", "email_key");

-- CreateIndex
CREATE INDEX "user_groups_realm_id_idx" ON "user_groups"("realm_id");

-- CreateIndex
CREATE INDEX "group_members_user_id_idx" ON "group_members"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "recipients_realm_id_dm_key_key" ON "recipients"("realm_id", "dm_key");

-- CreateIndex
CREATE UNIQUE INDEX "channels_recipient_id_key" ON "channels"("recipient_id");

-- CreateIndex
CREATE UNIQUE INDEX "channels_realm_id_name_key_key" ON "channels"("realm_id", "name_key");

-- CreateIndex
CREATE INDEX "subscriptions_channel_id_user_id_idx" ON "subscriptions"("channel_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "subscriptions_user_id_channel_id_key" ON "subscriptions"("user_id", "channel_id");

-- CreateIndex
CREATE INDEX "messages_recipient_id_topic_key_id_idx" ON "messages"("recipient_id", "topic_key", "id");

-- CreateIndex
CREATE INDEX "messages_recipient_id_id_idx" ON "messages"("recipient_id", "id");

-- CreateIndex
CREATE INDEX "messages_sender_id_id_idx" ON "messages"("sender_id", "id");

-- CreateIndex
CREATE INDEX "user_messages_message_id_idx" ON "user_messages"("message_id");

-- CreateIndex
CREATE INDEX "reactions_message_id_idx" ON "reactions"("message_id");

-- CreateIndex
CREATE UNIQUE INDEX "reactions_message_id_user_id_reaction_type_emoji_code_key" ON "reactions"("message_id", "user_id", "reaction_type", "emoji_code");

-- CreateIndex
CREATE INDEX "user_topics_channel_id_topic_key_idx" ON "user_topics"("channel_id", "topic_key");

-- CreateIndex
CREATE UNIQUE INDEX "user_topics_user_id_channel_id_topic_key_key" ON "user_topics"("user_id", "channel_id", "topic_key");

-- CreateIndex
CREATE UNIQUE INDEX "attachments_path_id_key" ON "attachments"("path_id");

-- CreateIndex
CREATE INDEX "attachments_owner_id_idx" ON "attachments"("owner_id");

-- CreateIndex
CREATE INDEX "attachments_create_time_idx" ON "attachments"("create_time");

-- CreateIndex
CREATE INDEX "attachment_messages_message_id_idx" ON "attachment_messages"("message_id");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_event_id_key" ON "outbox"("event_id");

-- CreateIndex
CREATE INDEX "processed_events_processed_at_idx" ON "processed_events"("processed_at");

