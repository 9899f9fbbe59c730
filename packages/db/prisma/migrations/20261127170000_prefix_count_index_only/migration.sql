-- A name-prefix search's count (metadata=count) reads the index alone: with the name itself in the
-- index, PostgreSQL can answer lower(name) LIKE 'x%' from index tuples (an index-only scan) instead of
-- visiting every matching row in the table (a bitmap heap scan: 0.30 -> 0.20 ms for 999 of 10,000).
DROP INDEX IF EXISTS "organization_environment_id_lower_name_idx";
CREATE INDEX "organization_environment_id_lower_name_idx" ON "organization" ("environment_id", lower("name") text_pattern_ops) INCLUDE ("name");
DROP INDEX IF EXISTS "person_environment_id_lower_full_name_idx";
CREATE INDEX "person_environment_id_lower_full_name_idx" ON "person" ("environment_id", lower("full_name") text_pattern_ops) INCLUDE ("full_name");
DROP INDEX IF EXISTS "person_environment_id_lower_family_name_idx";
CREATE INDEX "person_environment_id_lower_family_name_idx" ON "person" ("environment_id", lower("family_name") text_pattern_ops) INCLUDE ("family_name");
