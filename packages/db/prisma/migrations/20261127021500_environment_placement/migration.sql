-- Environments placed on several PostgreSQL clusters (DATABASE_URLS, docs/scaling.md "Placement").
-- Read only on the first (global) cluster. No row: the environment lives on the first cluster.
CREATE TABLE "environment_placement" (
    "environment_id" TEXT NOT NULL,
    "cluster" INTEGER NOT NULL,
    "writes_frozen" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "environment_placement_pkey" PRIMARY KEY ("environment_id")
);

CREATE INDEX "environment_placement_cluster_idx" ON "environment_placement"("cluster");

-- An event's seq is unique per environment: a moved environment keeps its seqs (its change-feed
-- cursors stay valid) beside the seqs another cluster gave its own environments.
DROP INDEX "event_environment_id_seq_idx";
CREATE UNIQUE INDEX "event_environment_id_seq_key" ON "event"("environment_id", "seq");
DROP INDEX "event_seq_key";
CREATE INDEX "event_seq_idx" ON "event"("seq");
