-- Client devices (feature level 468): POST /register_client_device, and their push registration.
CREATE TABLE "client_devices" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "push_key_id" BIGINT,
    "push_key" TEXT,
    "token_kind" TEXT,
    "push_token_id" TEXT,
    "pending_push_token_id" TEXT,
    "token_updated_at" TIMESTAMPTZ(6),
    "error_code" TEXT,
    "bouncer_public_key" TEXT,
    "encrypted_push_registration" TEXT,
    "relay_device_id" TEXT,
    "registration_key" UUID,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "client_devices_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "client_devices_user_id_idx" ON "client_devices"("user_id");
