-- AlterTable
ALTER TABLE "notified_messages" ADD COLUMN     "edited_at" TIMESTAMPTZ(6);
