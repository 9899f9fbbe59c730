-- Reference data for environments created before the CRM tables existed: new
-- environments get it from the domain's seeders, these get the same sets here.
-- Each insert skips environments that have rows already, so it is safe to re-run.

INSERT INTO "custom_field_model" ("id", "environment_id", "key", "label")
SELECT 'customfieldmodel:' || md5(e.id || ':model:' || m.key), e.id, m.key, m.label
  FROM "environment" e
 CROSS JOIN (VALUES ('organization', 'Organization'), ('person', 'Person'), ('project', 'Project'),
                    ('sale', 'Sale'), ('hours', 'Hours')) AS m(key, label)
 WHERE NOT EXISTS (SELECT 1 FROM "custom_field_model" x WHERE x.environment_id = e.id);

INSERT INTO "custom_field_type" ("id", "environment_id", "type", "name", "position", "value_type", "render_type", "has_options")
SELECT 'customfieldtype:' || md5(e.id || ':type:' || t.type), e.id, t.type, t.name, t.position, t.value_type, t.render_type, t.has_options
  FROM "environment" e
 CROSS JOIN (VALUES ('text', 'Text', 0, 'Text', 'text', false), ('textarea', 'Text area', 1, 'Text', 'textarea', false),
                    ('integer', 'Whole number', 2, 'Integer', 'number', false), ('decimal', 'Number', 3, 'Decimal', 'number', false),
                    ('date', 'Date', 4, 'Date', 'date', false), ('time', 'Time', 5, 'Time', 'time', false),
                    ('datetime', 'Date and time', 6, 'DateTime', 'datetime', false),
                    ('dropdown', 'Dropdown', 7, 'Text', 'select', true), ('radio', 'Radio buttons', 8, 'Text', 'radio', true))
       AS t(type, name, position, value_type, render_type, has_options)
 WHERE NOT EXISTS (SELECT 1 FROM "custom_field_type" x WHERE x.environment_id = e.id);

INSERT INTO "gender" ("id", "environment_id", "name")
SELECT 'gender:' || md5(e.id || ':gender:' || g.name), e.id, g.name
  FROM "environment" e CROSS JOIN (VALUES ('Male'), ('Female'), ('Unknown')) AS g(name)
 WHERE NOT EXISTS (SELECT 1 FROM "gender" x WHERE x.environment_id = e.id);

INSERT INTO "country" ("id", "environment_id", "name", "country_code", "language_code")
SELECT 'country:' || md5(e.id || ':country:' || c.code), e.id, c.name, c.code, c.lang
  FROM "environment" e
 CROSS JOIN (VALUES ('Netherlands', 'NL', 'nl'), ('Belgium', 'BE', 'nl'), ('Germany', 'DE', 'de'), ('France', 'FR', 'fr'),
                    ('United Kingdom', 'GB', 'en'), ('United States', 'US', 'en'), ('Spain', 'ES', 'es'), ('Italy', 'IT', 'it'),
                    ('Luxembourg', 'LU', 'fr'), ('Denmark', 'DK', 'da')) AS c(name, code, lang)
 WHERE NOT EXISTS (SELECT 1 FROM "country" x WHERE x.environment_id = e.id);

INSERT INTO "interest" ("id", "environment_id", "name", "api_name")
SELECT 'interest:' || md5(e.id || ':interest:' || i.api), e.id, i.name, i.api
  FROM "environment" e
 CROSS JOIN (VALUES ('Newsletter', 'newsletter'), ('Events', 'events'), ('Webinars', 'webinars'),
                    ('Product updates', 'product_updates')) AS i(name, api)
 WHERE NOT EXISTS (SELECT 1 FROM "interest" x WHERE x.environment_id = e.id);

INSERT INTO "mailing_list" ("id", "environment_id", "name")
SELECT 'mailinglist:' || md5(e.id || ':mailinglist:' || l.name), e.id, l.name
  FROM "environment" e CROSS JOIN (VALUES ('Newsletter'), ('Customer events')) AS l(name)
 WHERE NOT EXISTS (SELECT 1 FROM "mailing_list" x WHERE x.environment_id = e.id);

INSERT INTO "document_type" ("id", "environment_id", "label", "is_for_crm", "is_for_sale", "is_for_project", "is_for_invoice",
                             "is_for_debtor", "is_visible_on_all", "updated_at")
SELECT 'documenttype:' || md5(e.id || ':documenttype:' || d.label), e.id, d.label, d.crm, d.sale, d.project, d.invoice, d.debtor, d.all_,
       CURRENT_TIMESTAMP
  FROM "environment" e
 CROSS JOIN (VALUES ('Contract', true, true, true, false, false, false), ('Quote', false, true, false, false, false, false),
                    ('Invoice', false, false, false, true, true, false), ('Other', false, false, false, false, false, true))
       AS d(label, crm, sale, project, invoice, debtor, all_)
 WHERE NOT EXISTS (SELECT 1 FROM "document_type" x WHERE x.environment_id = e.id);

INSERT INTO "my_organization_profile" ("id", "environment_id", "name", "main_profile", "updated_at")
SELECT 'myorganizationprofile:' || md5(e.id || ':profile'), e.id, 'Main', true, CURRENT_TIMESTAMP
  FROM "environment" e
 WHERE NOT EXISTS (SELECT 1 FROM "my_organization_profile" x WHERE x.environment_id = e.id);
