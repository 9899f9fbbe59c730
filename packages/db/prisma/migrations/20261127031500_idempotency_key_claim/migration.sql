-- Safe retries (issue 29, section 1): an Idempotency-Key claimed inside the write's own transaction.
-- The claim is the transaction's first statement, sent without waiting for its answer (pipelined
-- with the write), so a statement that answers "not claimed" cannot be looked at: it fails
-- instead, with SQLSTATE BOIK1, and the whole write is rolled back with it. It claims a new key,
-- one whose answer expired, or one claimed apart whose first request's process died (lease past,
-- same request), as the claim the door makes on its own connection does
-- (packages/runtime/src/idempotency.ts). A concurrent request holding the key uncommitted makes this
-- INSERT wait for its commit. Its lease never ends (infinity): committed, the claim says its write
-- has happened, so the key is never taken over to run again. Its answer is kept after the commit.
--
-- The body is an E'' string with \073 for the semicolons: the migration runner splits a script at
-- every semicolon, dollar quotes included. It reads:
--   BEGIN
--     INSERT INTO idempotency_key (...) VALUES (...)
--       ON CONFLICT (environment_id, token_id, key) DO UPDATE SET ... WHERE <expired or lease past>
--     IF NOT FOUND THEN
--       RAISE EXCEPTION 'Idempotency-Key held by another request' USING ERRCODE = 'BOIK1'
--     END IF
--   END
CREATE FUNCTION idempotency_key_claim(
  p_environment_id TEXT, p_token_id TEXT, p_key TEXT, p_request_hash TEXT, p_ttl_ms FLOAT8
) RETURNS void LANGUAGE plpgsql
  AS E'BEGIN
  INSERT INTO idempotency_key (environment_id, token_id, key, request_hash, lease_until, expires_at)
  VALUES (p_environment_id, p_token_id, p_key, p_request_hash,
          \'infinity\', now() + make_interval(secs => p_ttl_ms / 1000))
  ON CONFLICT (environment_id, token_id, key) DO UPDATE
    SET request_hash = EXCLUDED.request_hash, status = NULL, headers = NULL, body = NULL,
        lease_until = EXCLUDED.lease_until, expires_at = EXCLUDED.expires_at, created_at = now()
    WHERE idempotency_key.expires_at < now()
       OR (idempotency_key.status IS NULL AND idempotency_key.lease_until < now()
           AND idempotency_key.request_hash = EXCLUDED.request_hash)\073
  IF NOT FOUND THEN
    RAISE EXCEPTION \'Idempotency-Key held by another request\' USING ERRCODE = \'BOIK1\'\073
  END IF\073
END';
