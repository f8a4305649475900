-- AlterTable
ALTER TABLE "realms" ADD COLUMN     "settings" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "user_settings_defaults" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "custom_profile_fields" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "hint" TEXT NOT NULL DEFAULT '',
    "field_type" INTEGER NOT NULL,
    "field_data" TEXT NOT NULL DEFAULT '',
    "order" INTEGER NOT NULL,
    "display_in_profile_summary" BOOLEAN NOT NULL DEFAULT false,
    "required" BOOLEAN NOT NULL DEFAULT false,
    "editable_by_user" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "custom_profile_fields_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_profile_field_values" (
    "field_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "value" TEXT NOT NULL,
    "rendered_value" TEXT,

    CONSTRAINT "custom_profile_field_values_pkey" PRIMARY KEY ("field_id","user_id")
);

-- CreateTable
CREATE TABLE "bot_services" (
    "id" SERIAL NOT NULL,
    "bot_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "base_url" TEXT NOT NULL,
    "interface" INTEGER NOT NULL DEFAULT 1,
    "token" TEXT NOT NULL,

    CONSTRAINT "bot_services_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "custom_profile_fields_realm_id_idx" ON "custom_profile_fields"("realm_id");

-- CreateIndex
CREATE INDEX "custom_profile_field_values_user_id_idx" ON "custom_profile_field_values"("user_id");

-- CreateIndex
CREATE INDEX "bot_services_bot_id_idx" ON "bot_services"("bot_id");

-- AddForeignKey
ALTER TABLE "custom_profile_fields" ADD CONSTRAINT "custom_profile_fields_realm_id_fkey" FOREIGN KEY ("realm_id") REFERENCES "realms"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_profile_field_values" ADD CONSTRAINT "custom_profile_field_values_field_id_fkey" FOREIGN KEY ("field_id") REFERENCES "custom_profile_fields"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_profile_field_values" ADD CONSTRAINT "custom_profile_field_values_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bot_services" ADD CONSTRAINT "bot_services_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

