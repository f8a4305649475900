-- AlterTable
ALTER TABLE "realms" ADD COLUMN     "moderation_request_channel_id" INTEGER;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "allow_private_data_export" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "bot_owner_id" INTEGER;

-- AlterTable
ALTER TABLE "scheduled_messages" ADD COLUMN     "delivery_type" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "reminder_target_message_id" INTEGER;

-- CreateTable
CREATE TABLE "default_channels" (
    "channel_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,

    CONSTRAINT "default_channels_pkey" PRIMARY KEY ("channel_id")
);

-- CreateTable
CREATE TABLE "channel_folders" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "rendered_description" TEXT NOT NULL,
    "creator_id" INTEGER,
    "date_created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "is_archived" BOOLEAN NOT NULL DEFAULT false,
    "order" INTEGER NOT NULL,

    CONSTRAINT "channel_folders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "linkifiers" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "pattern" TEXT NOT NULL,
    "url_template" TEXT NOT NULL,
    "order" INTEGER NOT NULL,

    CONSTRAINT "linkifiers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "code_playgrounds" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "pygments_language" TEXT NOT NULL,
    "url_template" TEXT NOT NULL,

    CONSTRAINT "code_playgrounds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "realm_exports" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "acting_user_id" INTEGER NOT NULL,
    "export_type" INTEGER NOT NULL,
    "date_requested" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "date_succeeded" TIMESTAMPTZ(6),
    "date_failed" TIMESTAMPTZ(6),
    "date_deleted" TIMESTAMPTZ(6),
    "export_path" TEXT,
    "size_bytes" INTEGER,

    CONSTRAINT "realm_exports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "default_channels_realm_id_idx" ON "default_channels"("realm_id");

-- CreateIndex
CREATE UNIQUE INDEX "channel_folders_realm_id_name_key_key" ON "channel_folders"("realm_id", "name_key");

-- CreateIndex
CREATE UNIQUE INDEX "linkifiers_realm_id_pattern_key" ON "linkifiers"("realm_id", "pattern");

-- CreateIndex
CREATE UNIQUE INDEX "code_playgrounds_realm_id_pygments_language_name_key" ON "code_playgrounds"("realm_id", "pygments_language", "name");

-- CreateIndex
CREATE INDEX "realm_exports_realm_id_idx" ON "realm_exports"("realm_id");

