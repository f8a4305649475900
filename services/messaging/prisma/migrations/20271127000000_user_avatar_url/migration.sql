-- AlterTable
ALTER TABLE "users" ADD COLUMN     "avatar_url" TEXT;
