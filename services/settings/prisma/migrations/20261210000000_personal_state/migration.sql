-- AlterTable
ALTER TABLE "realms" ADD COLUMN     "allow_message_editing" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "enable_read_receipts" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "message_content_edit_limit_seconds" INTEGER DEFAULT 600,
ADD COLUMN     "message_retention_days" INTEGER,
ADD COLUMN     "move_messages_between_streams_limit_seconds" INTEGER DEFAULT 604800,
ADD COLUMN     "move_messages_within_stream_limit_seconds" INTEGER DEFAULT 604800,
ADD COLUMN     "presence_disabled" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "user_statuses" (
    "user_id" INTEGER NOT NULL,
    "status_text" TEXT NOT NULL DEFAULT '',
    "emoji_name" TEXT NOT NULL DEFAULT '',
    "emoji_code" TEXT NOT NULL DEFAULT '',
    "reaction_type" TEXT NOT NULL DEFAULT 'unicode_emoji',
    "timestamp" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_statuses_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "muted_users" (
    "user_id" INTEGER NOT NULL,
    "muted_user_id" INTEGER NOT NULL,
    "date_muted" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "muted_users_pkey" PRIMARY KEY ("user_id","muted_user_id")
);

-- CreateTable
CREATE TABLE "alert_words" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "word" TEXT NOT NULL,

    CONSTRAINT "alert_words_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "realm_emoji" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "author_id" INTEGER,
    "file_name" TEXT NOT NULL DEFAULT '',
    "is_animated" BOOLEAN NOT NULL DEFAULT false,
    "deactivated" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "realm_emoji_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bot_storage" (
    "bot_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "bot_storage_pkey" PRIMARY KEY ("bot_id","key")
);

-- CreateTable
CREATE TABLE "system_groups" (
    "realm_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "group_id" INTEGER NOT NULL,

    CONSTRAINT "system_groups_pkey" PRIMARY KEY ("realm_id","name")
);

-- CreateIndex
CREATE INDEX "alert_words_user_id_idx" ON "alert_words"("user_id");

-- CreateIndex
CREATE INDEX "realm_emoji_realm_id_idx" ON "realm_emoji"("realm_id");

-- AddForeignKey
ALTER TABLE "user_statuses" ADD CONSTRAINT "user_statuses_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "muted_users" ADD CONSTRAINT "muted_users_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_words" ADD CONSTRAINT "alert_words_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bot_storage" ADD CONSTRAINT "bot_storage_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- One active custom emoji per name and organization (deactivated ones free the name), and one row per alert word
-- regardless of case (the Prisma schema cannot state either).
CREATE UNIQUE INDEX "realm_emoji_active_name_key" ON "realm_emoji"("realm_id", "name") WHERE NOT "deactivated";
CREATE UNIQUE INDEX "alert_words_user_id_word_key" ON "alert_words"("user_id", lower("word"));
