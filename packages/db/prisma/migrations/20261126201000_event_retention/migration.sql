-- The retention of the change feed (issue 29, section 2): events older than the retention are pruned,
-- and pruned_through_seq is the highest seq pruned so far. A cursor below it may have missed
-- changes, so the feed answers it 410 Gone.
CREATE TABLE "event_retention" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "pruned_through_seq" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "event_retention_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "event_retention_one_row" CHECK ("id" = 1)
);
