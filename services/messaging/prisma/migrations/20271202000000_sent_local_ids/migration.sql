-- The client ids of sends (queue_id, local_id), kept for a few minutes: a retried send with the same sender and ids
-- is the same message. The send statement inserts the row beside the message, and a repeat fails on the primary key:
-- the whole statement rolls back.
CREATE TABLE "sent_local_ids" (
    "sender_id" INTEGER NOT NULL,
    "queue_id" TEXT NOT NULL,
    "local_id" TEXT NOT NULL,
    "message_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sent_local_ids_pkey" PRIMARY KEY ("sender_id","queue_id","local_id")
);

CREATE INDEX "sent_local_ids_created_at_idx" ON "sent_local_ids"("created_at");
