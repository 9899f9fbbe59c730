-- The id of the request that made a change (X-Request-Id), kept with its event: the webhook
-- delivery of the event sends it on, so a receiver's log and ours name the same request.
-- Null for changes made outside a request (jobs, the admin CLI).
ALTER TABLE "event" ADD COLUMN "request_id" TEXT;
