-- Safe retries (issue 29, section 1): the answer of a write sent with an Idempotency-Key, kept per
-- environment, token and key for 24 hours. status NULL: the first request is still running (its
-- process holds the lease until lease_until).
CREATE TABLE "idempotency_key" (
    "environment_id" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status" INTEGER,
    "headers" JSONB,
    "body" BYTEA,
    "lease_until" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "idempotency_key_pkey" PRIMARY KEY ("environment_id", "token_id", "key")
);
CREATE INDEX "idempotency_key_expires_at_idx" ON "idempotency_key"("expires_at");
