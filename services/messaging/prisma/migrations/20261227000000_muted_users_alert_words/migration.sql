-- CreateTable
CREATE TABLE "muted_users" (
    "user_id" INTEGER NOT NULL,
    "muted_user_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,

    CONSTRAINT "muted_users_pkey" PRIMARY KEY ("user_id","muted_user_id")
);

-- CreateTable
CREATE TABLE "alert_words" (
    "user_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "words" TEXT[],

    CONSTRAINT "alert_words_pkey" PRIMARY KEY ("user_id")
);

-- CreateIndex
CREATE INDEX "muted_users_realm_id_idx" ON "muted_users"("realm_id");

-- CreateIndex
CREATE INDEX "alert_words_realm_id_idx" ON "alert_words"("realm_id");
