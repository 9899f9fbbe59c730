-- Moving an environment between clusters (docs/scaling.md, "Placement"): the write fence.
-- A row here says the environment has left this cluster (or is leaving it: a move copies its last
-- changes), so nothing of it may be written here any more. Every write transaction of an environment
-- on a database of several clusters calls environment_write_fence first: it takes a shared advisory
-- lock keyed by the environment (for the transaction, or for the session of a connection checked out
-- for a write outside one), then looks for the row, and fails with SQLSTATE BOMV1 (answered 503 with
-- Retry-After) when it is there. The move takes the same lock exclusively to write the row: it waits
-- for every write holding the shared lock (admitted before), and every later one finds the row.
-- Each statement of a volatile function sees a fresh snapshot, so the look comes after the lock.
--
-- The bodies are E'' strings with \073 for the semicolons: the migration runner splits a script at
-- every semicolon, dollar quotes included.
CREATE TABLE "environment_fence" (
    "environment_id" TEXT NOT NULL,
    "moved_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "environment_fence_pkey" PRIMARY KEY ("environment_id")
);

CREATE FUNCTION environment_write_fence(p_environment_id TEXT, p_session BOOLEAN) RETURNS void LANGUAGE plpgsql
  AS E'BEGIN
  IF p_session THEN
    PERFORM pg_advisory_lock_shared(1651469686, hashtext(p_environment_id))\073
  ELSE
    PERFORM pg_advisory_xact_lock_shared(1651469686, hashtext(p_environment_id))\073
  END IF\073
  IF EXISTS (SELECT 1 FROM environment_fence WHERE environment_id = p_environment_id) THEN
    IF p_session THEN
      PERFORM pg_advisory_unlock_shared(1651469686, hashtext(p_environment_id))\073
    END IF\073
    RAISE EXCEPTION \'the environment has moved to another database cluster\' USING ERRCODE = \'BOMV1\'\073
  END IF\073
END';

CREATE FUNCTION environment_write_fence_release(p_environment_id TEXT) RETURNS boolean LANGUAGE sql
  AS 'SELECT pg_advisory_unlock_shared(1651469686, hashtext(p_environment_id))';
