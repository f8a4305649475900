-- CreateTable
CREATE TABLE "realm_emoji" (
    "realm_id" INTEGER NOT NULL,
    "emoji_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "source_url" TEXT NOT NULL,
    "deactivated" BOOLEAN NOT NULL,

    CONSTRAINT "realm_emoji_pkey" PRIMARY KEY ("realm_id","emoji_id")
);
