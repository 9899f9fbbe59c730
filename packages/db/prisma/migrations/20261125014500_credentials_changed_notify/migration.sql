-- Processes remember a token with its user's rights for at most a second: see
-- packages/db/src/remembered.ts and packages/domain/src/auth/authenticate.ts. A change to a
-- token or a user tells every process at once (LISTEN), so a deleted or deactivated token, or
-- a user's rights taken away, count at the next request anywhere. The triggers fire on the
-- changes that matter only: a token's last use, written once a minute, does not notify
-- (NOTIFY serializes commits server-wide: see 20261124220000_event_recorded_notify).
-- The payload is empty: a notification says "forget", never what changed.
-- The body is an E'' string with \073 for the semicolons (the migration runner splits at them).
CREATE FUNCTION notify_credentials_changed() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN
  PERFORM pg_notify(\'credentials_changed\', \'\')\073
  RETURN NULL\073
END';

CREATE TRIGGER api_token_credentials_changed
  AFTER UPDATE OF "key", secret_hash, deactivated_at, user_id, environment_id OR DELETE ON api_token
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credentials_changed();

CREATE TRIGGER user_account_credentials_changed
  AFTER UPDATE OF is_active, rights, environment_id OR DELETE ON user_account
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credentials_changed();
