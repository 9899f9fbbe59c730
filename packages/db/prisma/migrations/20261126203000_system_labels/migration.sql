-- The built-in lookup values carry the product's system labels, which integrations written for
-- the real service compare against (issue 26). The human-readable text moves to name.
-- Values an environment added itself keep their label, and get it as their name too.
ALTER TABLE "sales_status" ADD COLUMN "name" TEXT;
ALTER TABLE "project_status" ADD COLUMN "name" TEXT;
ALTER TABLE "relation_type" ADD COLUMN "name" TEXT;
ALTER TABLE "employee_status" ADD COLUMN "name" TEXT;
UPDATE "sales_status" SET "name" = "label";
UPDATE "project_status" SET "name" = "label";
UPDATE "relation_type" SET "name" = "label";
UPDATE "employee_status" SET "name" = "label";

UPDATE "sales_status" SET "label" = 'OpportunityStatus_' || lower("label") WHERE "label" IN ('Open', 'Won', 'Lost');
UPDATE "project_status" SET "label" = CASE "label" WHEN 'Active' THEN 'tab_pactive' WHEN 'On hold' THEN 'tab_ponhold' ELSE 'tab_pclosed' END
 WHERE "label" IN ('Active', 'On hold', 'Closed');
UPDATE "relation_type" SET "label" = 'Relationtype_' || "type"
 WHERE ("label", "type") IN (('Customer', 'customer'), ('Prospect', 'prospect'), ('Supplier', 'supplier'), ('Partner', 'partner'));
UPDATE "employee_status" SET "label" = "key" WHERE "key" IN ('active', 'inactive', 'unemployed');

-- the own company, a relation type every environment of the real service has
INSERT INTO "relation_type" ("id", "environment_id", "label", "name", "color", "type", "created_at", "updated_at")
SELECT 'relationtype:' || md5(e."id" || ':own_company'), e."id", 'Relationtype_own_company', 'Own company', '#37474f', 'own_company', now(), now()
  FROM "environment" e
 WHERE NOT EXISTS (SELECT 1 FROM "relation_type" r WHERE r."environment_id" = e."id" AND r."type" = 'own_company');
