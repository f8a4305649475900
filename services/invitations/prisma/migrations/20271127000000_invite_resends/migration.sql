-- CreateTable
CREATE TABLE "invite_resends" (
    "id" SERIAL NOT NULL,
    "invite_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "sent_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invite_resends_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "invite_resends_realm_id_sent_at_idx" ON "invite_resends"("realm_id", "sent_at");

-- AddForeignKey
ALTER TABLE "invite_resends" ADD CONSTRAINT "invite_resends_invite_id_fkey" FOREIGN KEY ("invite_id") REFERENCES "multiuse_invites"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
