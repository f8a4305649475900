-- Push notifications of new messages (issue 29): the personal settings they depend on (a copy of the settings
-- service's), the messages that notify someone, who they notify and why, and what reached which device.
CREATE TABLE "notification_settings" (
    "user_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "settings" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_settings_pkey" PRIMARY KEY ("user_id")
);

CREATE TABLE "notified_messages" (
    "message_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "message" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notified_messages_pkey" PRIMARY KEY ("message_id")
);

CREATE TABLE "message_notifications" (
    "message_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL,
    "even_if_present" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "removal" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "message_notifications_pkey" PRIMARY KEY ("message_id", "user_id")
);

CREATE INDEX "message_notifications_user_id_message_id_idx" ON "message_notifications"("user_id", "message_id");
CREATE INDEX "message_notifications_status_updated_at_idx" ON "message_notifications"("status", "updated_at");

CREATE TABLE "notification_deliveries" (
    "message_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "device" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_deliveries_pkey" PRIMARY KEY ("message_id", "user_id", "device", "kind")
);
