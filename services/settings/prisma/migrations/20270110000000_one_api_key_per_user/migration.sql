-- One API key per user, as in Zulip (issue 30): each user keeps their newest key, the older ones stop working.
DELETE FROM "api_keys" AS older
USING "api_keys" AS newer
WHERE older."user_id" = newer."user_id"
  AND (older."created_at", older."id") < (newer."created_at", newer."id");

-- DropIndex
DROP INDEX "api_keys_user_id_idx";

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "key" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_user_id_key" ON "api_keys"("user_id");
