-- AlterTable
ALTER TABLE "multiuse_invites" ADD COLUMN     "email" TEXT,
ADD COLUMN     "notify_referrer_on_join" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "used_at" TIMESTAMPTZ(6);

-- CreateTable
CREATE TABLE "outbox" (
    "id" BIGSERIAL NOT NULL,
    "event_id" UUID NOT NULL,
    "routing_key" TEXT NOT NULL,
    "envelope" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "outbox_event_id_key" ON "outbox"("event_id");

