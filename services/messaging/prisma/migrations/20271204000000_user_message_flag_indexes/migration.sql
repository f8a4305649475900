-- (No semicolon in these comments: the migration engine splits the script at every one.)
-- Partial indexes over the messages of a user by flag, as Zulip zerver_usermessage_*_message_id: the /register unread
-- messages, starred ids and recent direct conversations, and the is:unread / is:starred / is:dm narrows, read only
-- the rows they want instead of every message the user ever received. The predicates are written exactly as the
-- queries write them (services/messaging/src/repositories/user-state-reader.ts, narrow-reader.ts), so PostgreSQL
-- can match them. The bits are libs/zulip/src/flags.ts (read 1, starred 2, is_private 512).
CREATE INDEX "user_messages_unread_idx" ON "user_messages"("user_id", "message_id") WHERE ("flags" & 1) = 0;
CREATE INDEX "user_messages_starred_idx" ON "user_messages"("user_id", "message_id") WHERE ("flags" & 2) <> 0;
CREATE INDEX "user_messages_private_idx" ON "user_messages"("user_id", "message_id") WHERE ("flags" & 512) <> 0;
-- Without statistics on the bits PostgreSQL guesses how many of the rows of a user are unread (a fixed fraction), plans a
-- hash join over every message for what is, in a day of a team, a few dozen rows, and reads 200,000 rows for 50.
CREATE STATISTICS "user_messages_flag_bits" ON (("flags" & 1)), (("flags" & 2)), (("flags" & 512)) FROM "user_messages";
ANALYZE "user_messages";
