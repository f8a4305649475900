-- GET /users/me reads max_message_id from the messaging service, where the received messages are. Settings no
-- longer keeps a copy (it cost an update of every receiver's row per message).
ALTER TABLE "users" DROP COLUMN "max_message_id";
