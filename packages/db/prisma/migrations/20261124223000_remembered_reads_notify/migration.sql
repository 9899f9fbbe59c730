-- Processes remember the custom-field definitions of a model for at most a second: see
-- packages/db/src/remembered.ts. A change to a definition tells every process at once
-- (LISTEN), so the next read anywhere shows it.
-- The payload is empty: a notification says "forget", never what changed.
-- The bodies are E'' strings with \073 for the semicolons (the migration runner splits at them).
CREATE FUNCTION notify_custom_fields_changed() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN
  PERFORM pg_notify(\'custom_fields_changed\', \'\')\073
  RETURN NULL\073
END';

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
