-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "multiuse_invites" (
    "id" SERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "realm_url" TEXT NOT NULL,
    "referrer_id" INTEGER NOT NULL,
    "invite_as" INTEGER NOT NULL,
    "stream_ids" INTEGER[],
    "group_ids" INTEGER[],
    "include_realm_default_subscriptions" BOOLEAN NOT NULL,
    "welcome_message_custom_text" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6),
    "revoked_at" TIMESTAMPTZ(6),

    CONSTRAINT "multiuse_invites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "signups" (
    "id" SERIAL NOT NULL,
    "invite_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "email_key" TEXT NOT NULL,
    "user_id" INTEGER,
    "completed_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "processed_events" (
    "consumer" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "processed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer","event_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "multiuse_invites_key_key" ON "multiuse_invites"("key");

-- CreateIndex
CREATE INDEX "multiuse_invites_realm_id_idx" ON "multiuse_invites"("realm_id");

-- CreateIndex
CREATE INDEX "multiuse_invites_referrer_id_idx" ON "multiuse_invites"("referrer_id");

-- CreateIndex
CREATE UNIQUE INDEX "signups_realm_id_email_key_key" ON "signups"("realm_id", "email_key");

-- CreateIndex
CREATE INDEX "processed_events_processed_at_idx" ON "processed_events"("processed_at");

-- AddForeignKey
ALTER TABLE "signups" ADD CONSTRAINT "signups_invite_id_fkey" FOREIGN KEY ("invite_id") REFERENCES "multiuse_invites"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

