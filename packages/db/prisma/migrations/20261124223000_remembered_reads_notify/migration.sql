-- Processes remember a few hot reads for at most a second (a token with its user's rights,
-- the custom-field definitions of a model): see packages/db/src/remembered.ts. A change
-- to what they remember tells every process at once (LISTEN), so a deactivated token is
-- refused at the next request anywhere, not only when the second is up. The triggers fire
-- on the changes that matter only: a token's last use, written once a minute, does not
-- notify (NOTIFY serializes commits server-wide: see 20261124220000_event_recorded_notify).
-- The payload is empty: a notification says "forget", never what changed.
-- The bodies are E'' strings with \073 for the semicolons (the migration runner splits at them).
CREATE FUNCTION notify_credentials_changed() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN
  PERFORM pg_notify(\'credentials_changed\', \'\')\073
  RETURN NULL\073
END';

CREATE FUNCTION notify_custom_fields_changed() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN
  PERFORM pg_notify(\'custom_fields_changed\', \'\')\073
  RETURN NULL\073
END';

CREATE TRIGGER api_token_credentials_changed
  AFTER UPDATE OF "key", secret_hash, deactivated_at, user_id, environment_id OR DELETE ON api_token
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credentials_changed();

CREATE TRIGGER user_account_credentials_changed
  AFTER UPDATE OF is_active, rights, environment_id OR DELETE ON user_account
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credentials_changed();

CREATE TRIGGER custom_field_changed
  AFTER INSERT OR UPDATE OR DELETE ON custom_field
  FOR EACH STATEMENT EXECUTE FUNCTION notify_custom_fields_changed();

CREATE TRIGGER custom_field_option_changed
  AFTER INSERT OR UPDATE OR DELETE ON custom_field_option
  FOR EACH STATEMENT EXECUTE FUNCTION notify_custom_fields_changed();

CREATE TRIGGER custom_field_group_changed
  AFTER INSERT OR UPDATE OR DELETE ON custom_field_group
  FOR EACH STATEMENT EXECUTE FUNCTION notify_custom_fields_changed();

CREATE TRIGGER custom_field_model_changed
  AFTER INSERT OR UPDATE OR DELETE ON custom_field_model
  FOR EACH STATEMENT EXECUTE FUNCTION notify_custom_fields_changed();

CREATE TRIGGER custom_field_type_changed
  AFTER INSERT OR UPDATE OR DELETE ON custom_field_type
  FOR EACH STATEMENT EXECUTE FUNCTION notify_custom_fields_changed();
