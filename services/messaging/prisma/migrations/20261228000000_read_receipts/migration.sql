-- AlterTable
ALTER TABLE "realms" ADD COLUMN     "enable_read_receipts" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "send_read_receipts" BOOLEAN NOT NULL DEFAULT true;
