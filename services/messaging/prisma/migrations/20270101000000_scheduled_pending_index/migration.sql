-- Scheduled delivery reads only pending rows (the due ones by time, the leftovers by id): a partial index keeps
-- those reads independent of the delivered history, which grows without bound.
CREATE INDEX "scheduled_messages_pending_idx" ON "scheduled_messages" ("scheduled_at", "id")
  WHERE "delivered" = false AND "failed" = false;
