-- AlterTable
ALTER TABLE "users" ADD COLUMN     "avatar_file" TEXT;
