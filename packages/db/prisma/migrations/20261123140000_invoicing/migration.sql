-- AlterTable
ALTER TABLE "invoice" ADD COLUMN     "comments" TEXT,
ADD COLUMN     "credited_invoice_id" TEXT,
ADD COLUMN     "due_date" DATE,
ADD COLUMN     "invoice_sequence" INTEGER,
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'invoice',
ADD COLUMN     "my_organization_profile_id" TEXT,
ADD COLUMN     "payment_term_id" TEXT,
ADD COLUMN     "reference" TEXT,
ADD COLUMN     "reminder_set_id" TEXT,
ADD COLUMN     "sent_at" TIMESTAMPTZ(3),
ADD COLUMN     "subject" TEXT,
ADD COLUMN     "total_incl" DECIMAL(14,2) NOT NULL DEFAULT 0,
ADD COLUMN     "total_paid" DECIMAL(14,2) NOT NULL DEFAULT 0,
ADD COLUMN     "total_vat" DECIMAL(14,2) NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "invoice_line" ADD COLUMN     "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "line_date" DATE,
ADD COLUMN     "project_id" TEXT,
ADD COLUMN     "revenue_group_id" TEXT,
ADD COLUMN     "source_id" TEXT,
ADD COLUMN     "source_type" TEXT,
ADD COLUMN     "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "vat_amount" DECIMAL(14,2) NOT NULL DEFAULT 0,
ADD COLUMN     "vat_class_id" TEXT,
ADD COLUMN     "vat_percentage" DECIMAL(7,4) NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "invoice_number_counter" (
    "environment_id" TEXT NOT NULL,
    "last_number" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "invoice_number_counter_pkey" PRIMARY KEY ("environment_id")
);

-- CreateTable
CREATE TABLE "payment" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "invoice_id" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "amount" DECIMAL(14,2) NOT NULL,
    "is_overpayment" BOOLEAN NOT NULL DEFAULT false,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_term" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "days" INTEGER NOT NULL,
    "method" TEXT NOT NULL DEFAULT 'bank_transfer',
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payment_term_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_status" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "color" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "invoice_status_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reminder_set" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "reminder_set_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reminder_template" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "attach_invoice" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "reminder_template_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reminder_set_template" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "reminder_set_id" TEXT NOT NULL,
    "reminder_template_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "send_after" INTEGER NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "reminder_set_template_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "payment_environment_id_updated_at_id_idx" ON "payment"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "payment_environment_id_created_at_id_idx" ON "payment"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "payment_environment_id_invoice_id_idx" ON "payment"("environment_id", "invoice_id");

-- CreateIndex
CREATE INDEX "payment_term_environment_id_days_id_idx" ON "payment_term"("environment_id", "days", "id");

-- CreateIndex
CREATE INDEX "payment_term_environment_id_updated_at_id_idx" ON "payment_term"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "invoice_status_environment_id_position_id_idx" ON "invoice_status"("environment_id", "position", "id");

-- CreateIndex
CREATE UNIQUE INDEX "invoice_status_environment_id_key_key" ON "invoice_status"("environment_id", "key");

-- CreateIndex
CREATE INDEX "reminder_set_environment_id_label_id_idx" ON "reminder_set"("environment_id", "label", "id");

-- CreateIndex
CREATE INDEX "reminder_template_environment_id_label_id_idx" ON "reminder_template"("environment_id", "label", "id");

-- CreateIndex
CREATE INDEX "reminder_set_template_environment_id_reminder_set_id_positi_idx" ON "reminder_set_template"("environment_id", "reminder_set_id", "position");

-- CreateIndex
CREATE INDEX "invoice_environment_id_created_at_id_idx" ON "invoice"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "invoice_environment_id_status_due_date_idx" ON "invoice"("environment_id", "status", "due_date");

-- CreateIndex
CREATE INDEX "invoice_environment_id_project_id_idx" ON "invoice"("environment_id", "project_id");

-- CreateIndex
CREATE INDEX "invoice_environment_id_invoice_date_id_idx" ON "invoice"("environment_id", "invoice_date", "id");

-- CreateIndex
CREATE UNIQUE INDEX "invoice_environment_id_invoice_sequence_key" ON "invoice"("environment_id", "invoice_sequence");

-- CreateIndex
CREATE INDEX "invoice_line_environment_id_project_id_idx" ON "invoice_line"("environment_id", "project_id");

-- AddForeignKey
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_payment_term_id_fkey" FOREIGN KEY ("payment_term_id") REFERENCES "payment_term"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_reminder_set_id_fkey" FOREIGN KEY ("reminder_set_id") REFERENCES "reminder_set"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_credited_invoice_id_fkey" FOREIGN KEY ("credited_invoice_id") REFERENCES "invoice"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment" ADD CONSTRAINT "payment_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoice"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reminder_set_template" ADD CONSTRAINT "reminder_set_template_reminder_set_id_fkey" FOREIGN KEY ("reminder_set_id") REFERENCES "reminder_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reminder_set_template" ADD CONSTRAINT "reminder_set_template_reminder_template_id_fkey" FOREIGN KEY ("reminder_template_id") REFERENCES "reminder_template"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice_line" ADD CONSTRAINT "invoice_line_vat_class_id_fkey" FOREIGN KEY ("vat_class_id") REFERENCES "vat_class"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice_line" ADD CONSTRAINT "invoice_line_revenue_group_id_fkey" FOREIGN KEY ("revenue_group_id") REFERENCES "revenue_group"("id") ON DELETE SET NULL ON UPDATE CASCADE;


-- Added by hand: the rules the database keeps whatever the code does.
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_status_known"
  CHECK ("status" IN ('draft', 'sent', 'partially_paid', 'paid', 'credited'));
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_kind_known" CHECK ("kind" IN ('invoice', 'credit'));
-- a number is given exactly when the invoice leaves draft
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_number_outside_draft"
  CHECK (("status" = 'draft') = ("invoice_sequence" IS NULL));
ALTER TABLE "payment" ADD CONSTRAINT "payment_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "payment_term" ADD CONSTRAINT "payment_term_days" CHECK ("days" >= 0);

-- Nothing is billed twice: an installment, a purchase, a subscription cycle or a fixed
-- price is on at most one invoice line of the environment (credit lines carry no source).
CREATE UNIQUE INDEX "invoice_line_source_once" ON "invoice_line" ("environment_id", "source_type", "source_id")
  WHERE "source_id" IS NOT NULL;

-- Reference data of environments that exist already (new ones get it from
-- packages/domain/src/invoices/reference-data.seed.ts: keep the two alike).
INSERT INTO "payment_term" ("id", "environment_id", "name", "days", "method", "is_default", "updated_at")
SELECT 'paymentterm:' || md5(e.id || ':' || t.name), e.id, t.name, t.days, t.method, t.is_default, now()
  FROM "environment" e
 CROSS JOIN (VALUES ('14 days', 14, 'bank_transfer', true), ('30 days', 30, 'bank_transfer', false),
                    ('Direct debit', 7, 'direct_debit', false), ('Cash', 0, 'cash', false)) AS t(name, days, method, is_default)
 WHERE NOT EXISTS (SELECT 1 FROM "payment_term" x WHERE x.environment_id = e.id);

INSERT INTO "invoice_status" ("id", "environment_id", "key", "name", "color", "position", "updated_at")
SELECT 'invoicestatus:' || md5(e.id || ':' || s.key), e.id, s.key, s.name, s.color, s.position, now()
  FROM "environment" e
 CROSS JOIN (VALUES ('draft', 'Concept', '#9e9e9e', 0), ('sent', 'Sent', '#2196f3', 1),
                    ('partially_paid', 'Partially paid', '#ff9800', 2), ('paid', 'Paid', '#4caf50', 3),
                    ('overdue', 'Overdue', '#f44336', 4), ('credited', 'Credited', '#795548', 5)) AS s(key, name, color, position)
 WHERE NOT EXISTS (SELECT 1 FROM "invoice_status" x WHERE x.environment_id = e.id);

INSERT INTO "reminder_template" ("id", "environment_id", "label", "subject", "body", "attach_invoice", "updated_at")
SELECT 'remindertemplate:' || md5(e.id || ':' || t.label), e.id, t.label, t.subject, t.body, true, now()
  FROM "environment" e
 CROSS JOIN (VALUES
   ('First reminder', 'Reminder: invoice {invoice_number}', 'Our invoice {invoice_number} was due on {due_date}. Please pay the open amount of {open_amount}.'),
   ('Second reminder', 'Second reminder: invoice {invoice_number}', 'We have not yet received payment of invoice {invoice_number}, due on {due_date}.'),
   ('Final notice', 'Final notice: invoice {invoice_number}', 'Invoice {invoice_number} is long overdue. Please pay {open_amount} within 7 days.')
 ) AS t(label, subject, body)
 WHERE NOT EXISTS (SELECT 1 FROM "reminder_template" x WHERE x.environment_id = e.id);

INSERT INTO "reminder_set" ("id", "environment_id", "label", "disabled", "is_default", "updated_at")
SELECT 'reminderset:' || md5(e.id || ':Standard'), e.id, 'Standard', false, true, now()
  FROM "environment" e
 WHERE NOT EXISTS (SELECT 1 FROM "reminder_set" x WHERE x.environment_id = e.id);

INSERT INTO "reminder_set_template" ("id", "environment_id", "reminder_set_id", "reminder_template_id", "label", "send_after", "position")
SELECT 'remindersettemplate:' || md5(e.id || ':' || s.label), e.id, 'reminderset:' || md5(e.id || ':Standard'),
       'remindertemplate:' || md5(e.id || ':' || s.label), s.label, s.send_after, s.position
  FROM "environment" e
 CROSS JOIN (VALUES ('First reminder', 7, 0), ('Second reminder', 21, 1), ('Final notice', 35, 2)) AS s(label, send_after, position)
 WHERE EXISTS (SELECT 1 FROM "reminder_set" x WHERE x.id = 'reminderset:' || md5(e.id || ':Standard'))
   AND NOT EXISTS (SELECT 1 FROM "reminder_set_template" x WHERE x.environment_id = e.id);
