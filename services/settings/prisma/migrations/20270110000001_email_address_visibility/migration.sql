-- AlterTable
ALTER TABLE "realms" ADD COLUMN "default_email_address_visibility" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "users" ADD COLUMN "email_address_visibility" INTEGER NOT NULL DEFAULT 1;
