-- AlterTable
ALTER TABLE "realms" ADD COLUMN     "allow_message_editing" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "message_content_edit_limit_seconds" INTEGER DEFAULT 600,
ADD COLUMN     "move_messages_within_stream_limit_seconds" INTEGER DEFAULT 604800,
ADD COLUMN     "move_messages_between_streams_limit_seconds" INTEGER DEFAULT 604800;

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "edit_history" JSONB;
