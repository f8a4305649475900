-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "has_submessages" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "submessages" (
    "id" SERIAL NOT NULL,
    "message_id" INTEGER NOT NULL,
    "sender_id" INTEGER NOT NULL,
    "msg_type" TEXT NOT NULL,
    "content" TEXT NOT NULL,

    CONSTRAINT "submessages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "submessages_message_id_idx" ON "submessages"("message_id");
