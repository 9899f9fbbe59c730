-- AlterTable
ALTER TABLE "sale" ADD COLUMN     "progress_id" TEXT,
ADD COLUMN     "reason_id" TEXT,
ADD COLUMN     "source_id" TEXT,
ADD COLUMN     "status_id" TEXT,
ADD COLUMN     "status_updated_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "sales_status" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sales_status_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sales_progress" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "color" TEXT,
    "chance_to_score" INTEGER,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sales_progress_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sales_source" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sales_source_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sales_reason" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "blocked" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sales_reason_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sales_filter" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "values" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sales_filter_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "revenue_group" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "revenue_group_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vat_class" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "percentage" DECIMAL(7,4) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "vat_class_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quote_status" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "color" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "quote_status_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quote_template" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT,
    "html" TEXT,
    "json" TEXT,
    "is_blocked" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "quote_template_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sale_service" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "sale_id" TEXT NOT NULL,
    "default_service_id" TEXT,
    "name" TEXT NOT NULL,
    "explanation" TEXT,
    "invoice_method" TEXT NOT NULL DEFAULT 'fixed_price',
    "subscription_cycle" TEXT,
    "amount" DECIMAL(14,4),
    "price" DECIMAL(14,4),
    "track_hours" BOOLEAN NOT NULL DEFAULT true,
    "track_cost" BOOLEAN NOT NULL DEFAULT true,
    "vat_class_id" TEXT,
    "revenue_group_id" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sale_service_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sale_service_hour_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "sale_service_id" TEXT NOT NULL,
    "hour_type_id" TEXT NOT NULL,
    "budgeted_amount" DECIMAL(14,4),
    "tariff" DECIMAL(14,4),
    "billable" BOOLEAN NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sale_service_hour_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quote" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "sale_id" TEXT NOT NULL,
    "quote_template_id" TEXT,
    "quote_status_id" TEXT NOT NULL,
    "quote_number" TEXT NOT NULL,
    "quote_date" DATE NOT NULL,
    "quote_subject" TEXT,
    "customer_reference" TEXT,
    "json" TEXT,
    "send_type" TEXT,
    "valid_days" INTEGER,
    "is_blocked" BOOLEAN NOT NULL DEFAULT false,
    "sent_at" TIMESTAMPTZ(3),
    "project_id" TEXT,
    "total_excl" DECIMAL(16,2) NOT NULL DEFAULT 0,
    "total_vat" DECIMAL(16,2) NOT NULL DEFAULT 0,
    "total_incl" DECIMAL(16,2) NOT NULL DEFAULT 0,
    "totals" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "quote_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quote_service_group" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "quote_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'all_included',
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "quote_service_group_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quote_line" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "quote_id" TEXT NOT NULL,
    "group_id" TEXT NOT NULL,
    "sale_service_id" TEXT,
    "name" TEXT NOT NULL,
    "quantity" DECIMAL(14,4) NOT NULL,
    "price" DECIMAL(14,4) NOT NULL,
    "vat_class_id" TEXT,
    "vat_percentage" DECIMAL(7,4) NOT NULL DEFAULT 0,
    "chosen" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "quote_line_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quote_email" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "quote_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT,
    "to" JSONB NOT NULL,
    "cc" JSONB NOT NULL,
    "bcc" JSONB NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "quote_email_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sales_status_environment_id_updated_at_id_idx" ON "sales_status"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "sales_progress_environment_id_updated_at_id_idx" ON "sales_progress"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "sales_source_environment_id_updated_at_id_idx" ON "sales_source"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "sales_reason_environment_id_updated_at_id_idx" ON "sales_reason"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "sales_filter_environment_id_updated_at_id_idx" ON "sales_filter"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "revenue_group_environment_id_updated_at_id_idx" ON "revenue_group"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "vat_class_environment_id_updated_at_id_idx" ON "vat_class"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "quote_status_environment_id_updated_at_id_idx" ON "quote_status"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "quote_status_environment_id_key_key" ON "quote_status"("environment_id", "key");

-- CreateIndex
CREATE INDEX "quote_template_environment_id_updated_at_id_idx" ON "quote_template"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "sale_service_environment_id_updated_at_id_idx" ON "sale_service"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "sale_service_environment_id_sale_id_idx" ON "sale_service"("environment_id", "sale_id");

-- CreateIndex
CREATE INDEX "sale_service_hour_type_environment_id_updated_at_id_idx" ON "sale_service_hour_type"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "sale_service_hour_type_environment_id_sale_service_id_idx" ON "sale_service_hour_type"("environment_id", "sale_service_id");

-- CreateIndex
CREATE INDEX "quote_environment_id_updated_at_id_idx" ON "quote"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "quote_environment_id_created_at_id_idx" ON "quote"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "quote_environment_id_sale_id_idx" ON "quote"("environment_id", "sale_id");

-- CreateIndex
CREATE INDEX "quote_service_group_environment_id_updated_at_id_idx" ON "quote_service_group"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "quote_service_group_environment_id_quote_id_idx" ON "quote_service_group"("environment_id", "quote_id");

-- CreateIndex
CREATE INDEX "quote_line_environment_id_updated_at_id_idx" ON "quote_line"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "quote_line_environment_id_quote_id_idx" ON "quote_line"("environment_id", "quote_id");

-- CreateIndex
CREATE INDEX "quote_email_environment_id_updated_at_id_idx" ON "quote_email"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "quote_email_environment_id_quote_id_idx" ON "quote_email"("environment_id", "quote_id");

-- AddForeignKey
ALTER TABLE "sale_service" ADD CONSTRAINT "sale_service_sale_id_fkey" FOREIGN KEY ("sale_id") REFERENCES "sale"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sale_service_hour_type" ADD CONSTRAINT "sale_service_hour_type_sale_service_id_fkey" FOREIGN KEY ("sale_service_id") REFERENCES "sale_service"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quote" ADD CONSTRAINT "quote_sale_id_fkey" FOREIGN KEY ("sale_id") REFERENCES "sale"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quote_service_group" ADD CONSTRAINT "quote_service_group_quote_id_fkey" FOREIGN KEY ("quote_id") REFERENCES "quote"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quote_line" ADD CONSTRAINT "quote_line_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "quote_service_group"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quote_email" ADD CONSTRAINT "quote_email_quote_id_fkey" FOREIGN KEY ("quote_id") REFERENCES "quote"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Sales lookups for environments created before these tables existed: new environments
-- get them from the domain's seeder (sales/reference-data.seed.ts), these the same sets.
-- Each insert skips environments that have rows already, so it is safe to re-run.
INSERT INTO "sales_status" ("id", "environment_id", "label", "position", "updated_at")
SELECT 'salesstatus:' || md5(e.id || ':' || s.label), e.id, s.label, s.position, now()
  FROM "environment" e CROSS JOIN (VALUES ('Open', 0), ('Won', 1), ('Lost', 2)) AS s(label, position)
 WHERE NOT EXISTS (SELECT 1 FROM "sales_status" x WHERE x.environment_id = e.id);

INSERT INTO "sales_progress" ("id", "environment_id", "label", "color", "chance_to_score", "position", "updated_at")
SELECT 'salesprogress:' || md5(e.id || ':' || p.label), e.id, p.label, p.color, p.chance, p.position, now()
  FROM "environment" e
 CROSS JOIN (VALUES ('Lead', '#90caf9', 10, 0), ('Qualified', '#42a5f5', 30, 1), ('Proposal', '#1e88e5', 60, 2),
                    ('Negotiation', '#1565c0', 80, 3)) AS p(label, color, chance, position)
 WHERE NOT EXISTS (SELECT 1 FROM "sales_progress" x WHERE x.environment_id = e.id);

INSERT INTO "sales_source" ("id", "environment_id", "name", "updated_at")
SELECT 'salessource:' || md5(e.id || ':' || s.name), e.id, s.name, now()
  FROM "environment" e CROSS JOIN (VALUES ('Website'), ('Referral'), ('Event')) AS s(name)
 WHERE NOT EXISTS (SELECT 1 FROM "sales_source" x WHERE x.environment_id = e.id);

INSERT INTO "sales_reason" ("id", "environment_id", "name", "blocked", "updated_at")
SELECT 'salesreason:' || md5(e.id || ':' || r.name), e.id, r.name, r.blocked, now()
  FROM "environment" e
 CROSS JOIN (VALUES ('Price', false), ('Quality', false), ('Timing', false), ('No budget (retired)', true)) AS r(name, blocked)
 WHERE NOT EXISTS (SELECT 1 FROM "sales_reason" x WHERE x.environment_id = e.id);

INSERT INTO "sales_filter" ("id", "environment_id", "name", "key", "values", "updated_at")
SELECT 'salesfilter:' || md5(e.id || ':' || f.key), e.id, f.name, f.key, f.vals::jsonb, now()
  FROM "environment" e
 CROSS JOIN (VALUES ('Status', 'status', '["Open","Won","Lost"]'),
                    ('Expected closing', 'expected_closing_date', '["this_month","this_quarter","this_year","overdue"]'))
       AS f(name, key, vals)
 WHERE NOT EXISTS (SELECT 1 FROM "sales_filter" x WHERE x.environment_id = e.id);

INSERT INTO "revenue_group" ("id", "environment_id", "label", "updated_at")
SELECT 'revenuegroup:' || md5(e.id || ':' || g.label), e.id, g.label, now()
  FROM "environment" e CROSS JOIN (VALUES ('Consultancy'), ('Licences')) AS g(label)
 WHERE NOT EXISTS (SELECT 1 FROM "revenue_group" x WHERE x.environment_id = e.id);

INSERT INTO "vat_class" ("id", "environment_id", "code", "label", "percentage", "updated_at")
SELECT 'vatclass:' || md5(e.id || ':' || v.code), e.id, v.code, v.label, v.pct, now()
  FROM "environment" e CROSS JOIN (VALUES ('high', 'High rate', 21), ('low', 'Low rate', 9), ('zero', 'Zero rate', 0)) AS v(code, label, pct)
 WHERE NOT EXISTS (SELECT 1 FROM "vat_class" x WHERE x.environment_id = e.id);

INSERT INTO "quote_status" ("id", "environment_id", "key", "label", "color", "position", "updated_at")
SELECT 'quotestatus:' || md5(e.id || ':' || q.key), e.id, q.key, q.label, q.color, q.position, now()
  FROM "environment" e
 CROSS JOIN (VALUES ('draft', 'Draft', '#9e9e9e', 0), ('sent', 'Sent', '#1e88e5', 1), ('accepted', 'Accepted', '#2e7d32', 2),
                    ('rejected', 'Rejected', '#c62828', 3)) AS q(key, label, color, position)
 WHERE NOT EXISTS (SELECT 1 FROM "quote_status" x WHERE x.environment_id = e.id);

INSERT INTO "quote_template" ("id", "environment_id", "name", "type", "updated_at")
SELECT 'quotetemplate:' || md5(e.id || ':standard'), e.id, 'Standard quote', 'quote', now()
  FROM "environment" e
 WHERE NOT EXISTS (SELECT 1 FROM "quote_template" x WHERE x.environment_id = e.id);
