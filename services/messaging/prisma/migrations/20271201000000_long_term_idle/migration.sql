-- AlterTable
ALTER TABLE "users" ADD COLUMN     "long_term_idle" BOOLEAN NOT NULL DEFAULT false;

