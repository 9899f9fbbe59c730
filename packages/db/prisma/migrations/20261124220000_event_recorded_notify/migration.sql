-- A committed event wakes the webhook workers at once (LISTEN event_recorded) instead of
-- at their next poll. Done by a trigger so that every writer of the outbox notifies and
-- none can forget. NOTIFY is sent at commit (never for a rolled-back change), and the
-- identical notifications of one transaction are folded into one. The payload is empty:
-- a notification says "look", the worker reads what is new from the outbox itself.
--
-- The function bodies are E'' strings with \073 for the semicolons: the migration runner
-- (Prisma's driver adapter) splits a script at every semicolon, dollar quotes included.
CREATE FUNCTION notify_event_recorded() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN PERFORM pg_notify(\'event_recorded\', \'\')\073 RETURN NULL\073 END';

CREATE TRIGGER event_recorded_notify
  AFTER INSERT ON "event"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_event_recorded();

-- A failed delivery put back in the queue (webhook.delivery.resend) wakes them too. The
-- WHEN clause keeps the trigger out of every other update of a delivery.
CREATE FUNCTION notify_webhook_delivery_due() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN PERFORM pg_notify(\'webhook_delivery_due\', \'\')\073 RETURN NULL\073 END';

CREATE TRIGGER webhook_delivery_due_notify
  AFTER UPDATE OF status ON "webhook_delivery"
  FOR EACH ROW WHEN (OLD.status = 'failed' AND NEW.status = 'pending')
  EXECUTE FUNCTION notify_webhook_delivery_due();
