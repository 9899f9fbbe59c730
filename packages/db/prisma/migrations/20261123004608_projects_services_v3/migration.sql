-- AlterTable
ALTER TABLE "employee" ADD COLUMN     "function" TEXT;

-- AlterTable
ALTER TABLE "invoice" ADD COLUMN     "draft_request_id" TEXT,
ADD COLUMN     "invoice_date" DATE,
ADD COLUMN     "total_amount" DECIMAL(14,2);

-- AlterTable
ALTER TABLE "project" ADD COLUMN     "can_register_mileage" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "contact_id" TEXT,
ADD COLUMN     "end_date" DATE,
ADD COLUMN     "invoice_reference" TEXT,
ADD COLUMN     "my_organization_profile_id" TEXT,
ADD COLUMN     "note" TEXT,
ADD COLUMN     "phase" TEXT NOT NULL DEFAULT 'execution',
ADD COLUMN     "project_manager_id" TEXT,
ADD COLUMN     "project_status_id" TEXT,
ADD COLUMN     "start_date" DATE;

-- CreateTable
CREATE TABLE "cost_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "blocked" BOOLEAN NOT NULL DEFAULT false,
    "tariff" DECIMAL(14,4),
    "is_unit_tariff" BOOLEAN NOT NULL DEFAULT false,
    "unit_name" TEXT,
    "is_attachment_allowed" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "cost_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "hour_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'normal',
    "tariff" DECIMAL(14,4),
    "blocked" BOOLEAN NOT NULL DEFAULT false,
    "color" TEXT,
    "vat_class_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "hour_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_line" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "invoice_id" TEXT NOT NULL,
    "project_service_id" TEXT,
    "description" TEXT NOT NULL,
    "quantity" DECIMAL(14,4) NOT NULL,
    "price" DECIMAL(14,4) NOT NULL,
    "amount" DECIMAL(14,2) NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "invoice_line_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_draft_request" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "invoice_date" DATE,
    "requested_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "invoice_draft_request_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_draft_request_project" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "invoice_id" TEXT,
    "message" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "invoice_draft_request_project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project_status" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "color" TEXT,
    "is_closed" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "project_status_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project_filter" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "values" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "project_filter_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project_service" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "default_service_id" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'invoiceable',
    "phase" TEXT NOT NULL DEFAULT 'execution',
    "name" TEXT NOT NULL,
    "explanation" TEXT,
    "invoice_method" TEXT NOT NULL,
    "subscription_cycle" TEXT,
    "amount" DECIMAL(14,4),
    "price" DECIMAL(14,4),
    "track_hours" BOOLEAN NOT NULL DEFAULT true,
    "track_cost" BOOLEAN NOT NULL DEFAULT true,
    "start_date" DATE,
    "end_date" DATE,
    "write_hours_start_date" DATE,
    "write_hours_end_date" DATE,
    "expected_invoice_date" DATE,
    "vat_class_id" TEXT,
    "revenue_group_id" TEXT,
    "use_in_resource_planner" BOOLEAN NOT NULL DEFAULT false,
    "invoice_in_installments" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'open',
    "service_number" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "project_service_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project_service_hour_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "project_service_id" TEXT NOT NULL,
    "hour_type_id" TEXT NOT NULL,
    "budgeted_amount" DECIMAL(14,4),
    "tariff" DECIMAL(14,4),
    "billable" BOOLEAN NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "project_service_hour_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project_service_cost_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "project_service_id" TEXT NOT NULL,
    "cost_type_id" TEXT NOT NULL,
    "budgeted_amount" DECIMAL(14,4),
    "tariff" DECIMAL(14,4),
    "purchase_tariff" DECIMAL(14,4),
    "purchase_margin" DECIMAL(14,4),
    "billable" BOOLEAN NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "project_service_cost_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project_service_installment" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "project_service_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "percentage" DECIMAL(7,4),
    "price" DECIMAL(14,4),
    "position" INTEGER NOT NULL DEFAULT 0,
    "expiration_date" DATE,
    "status" TEXT NOT NULL DEFAULT 'open',
    "invoice_id" TEXT,

    CONSTRAINT "project_service_installment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project_employee" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,
    "tariff" DECIMAL(14,4),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "project_employee_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assignment" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "project_service_id" TEXT,
    "project_hour_type_id" TEXT NOT NULL,
    "name" TEXT,
    "description" TEXT,
    "start_date" DATE,
    "end_date" DATE,
    "hours_type" TEXT NOT NULL DEFAULT 'total',
    "hours" DECIMAL(14,4),
    "use_spread" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "assignment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assignment_employee" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "assignment_id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,

    CONSTRAINT "assignment_employee_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "purchase" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "project_id" TEXT,
    "organization_id" TEXT,
    "person_id" TEXT,
    "supplier" TEXT,
    "invoice_number" TEXT,
    "type" TEXT NOT NULL DEFAULT 'purchase',
    "invoice_date" DATE,
    "invoice_amount" DECIMAL(14,2),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "purchase_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "advance_service_configuration" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "default_service_id" TEXT,
    "vat_class_id" TEXT,
    "revenue_group_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "advance_service_configuration_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "default_service" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "explanation" TEXT,
    "price" DECIMAL(14,4),
    "price_editable" BOOLEAN NOT NULL DEFAULT true,
    "invoice_method" TEXT NOT NULL DEFAULT 'time_and_expenses',
    "track_hours" BOOLEAN NOT NULL DEFAULT true,
    "track_cost" BOOLEAN NOT NULL DEFAULT true,
    "vat_class_id" TEXT,
    "revenue_group_id" TEXT,
    "my_organization_profile_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "default_service_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "default_service_hour_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "default_service_id" TEXT NOT NULL,
    "hour_type_id" TEXT NOT NULL,
    "tariff" DECIMAL(14,4),
    "budgeted_amount" DECIMAL(14,4),
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "default_service_hour_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "default_service_cost_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "default_service_id" TEXT NOT NULL,
    "cost_type_id" TEXT NOT NULL,
    "tariff" DECIMAL(14,4),
    "purchase_tariff" DECIMAL(14,4),
    "budgeted_amount" DECIMAL(14,4),
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "default_service_cost_type_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "cost_type_environment_id_updated_at_id_idx" ON "cost_type"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "cost_type_environment_id_label_id_idx" ON "cost_type"("environment_id", "label", "id");

-- CreateIndex
CREATE INDEX "hour_type_environment_id_updated_at_id_idx" ON "hour_type"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "hour_type_environment_id_label_id_idx" ON "hour_type"("environment_id", "label", "id");

-- CreateIndex
CREATE INDEX "invoice_line_environment_id_invoice_id_idx" ON "invoice_line"("environment_id", "invoice_id");

-- CreateIndex
CREATE INDEX "invoice_line_environment_id_project_service_id_idx" ON "invoice_line"("environment_id", "project_service_id");

-- CreateIndex
CREATE INDEX "invoice_draft_request_environment_id_updated_at_id_idx" ON "invoice_draft_request"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "invoice_draft_request_project_environment_id_request_id_idx" ON "invoice_draft_request_project"("environment_id", "request_id");

-- CreateIndex
CREATE UNIQUE INDEX "invoice_draft_request_project_request_id_project_id_key" ON "invoice_draft_request_project"("request_id", "project_id");

-- CreateIndex
CREATE INDEX "project_status_environment_id_updated_at_id_idx" ON "project_status"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "project_filter_environment_id_updated_at_id_idx" ON "project_filter"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "project_service_environment_id_updated_at_id_idx" ON "project_service"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "project_service_environment_id_project_id_idx" ON "project_service"("environment_id", "project_id");

-- CreateIndex
CREATE INDEX "project_service_hour_type_environment_id_project_service_id_idx" ON "project_service_hour_type"("environment_id", "project_service_id");

-- CreateIndex
CREATE INDEX "project_service_cost_type_environment_id_project_service_id_idx" ON "project_service_cost_type"("environment_id", "project_service_id");

-- CreateIndex
CREATE INDEX "project_service_installment_environment_id_project_service__idx" ON "project_service_installment"("environment_id", "project_service_id");

-- CreateIndex
CREATE INDEX "project_employee_environment_id_updated_at_id_idx" ON "project_employee"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "project_employee_project_id_employee_id_key" ON "project_employee"("project_id", "employee_id");

-- CreateIndex
CREATE INDEX "assignment_environment_id_updated_at_id_idx" ON "assignment"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "assignment_environment_id_project_id_idx" ON "assignment"("environment_id", "project_id");

-- CreateIndex
CREATE INDEX "assignment_employee_environment_id_employee_id_idx" ON "assignment_employee"("environment_id", "employee_id");

-- CreateIndex
CREATE UNIQUE INDEX "assignment_employee_assignment_id_employee_id_key" ON "assignment_employee"("assignment_id", "employee_id");

-- CreateIndex
CREATE INDEX "purchase_environment_id_updated_at_id_idx" ON "purchase"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "advance_service_configuration_environment_id_key" ON "advance_service_configuration"("environment_id");

-- CreateIndex
CREATE INDEX "advance_service_configuration_environment_id_updated_at_id_idx" ON "advance_service_configuration"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "default_service_environment_id_updated_at_id_idx" ON "default_service"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "default_service_environment_id_name_id_idx" ON "default_service"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "default_service_hour_type_environment_id_default_service_id_idx" ON "default_service_hour_type"("environment_id", "default_service_id");

-- CreateIndex
CREATE INDEX "default_service_cost_type_environment_id_default_service_id_idx" ON "default_service_cost_type"("environment_id", "default_service_id");

-- CreateIndex
CREATE INDEX "project_environment_id_created_at_id_idx" ON "project"("environment_id", "created_at", "id");

-- AddForeignKey
ALTER TABLE "invoice_line" ADD CONSTRAINT "invoice_line_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoice"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice_line" ADD CONSTRAINT "invoice_line_project_service_id_fkey" FOREIGN KEY ("project_service_id") REFERENCES "project_service"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice_draft_request_project" ADD CONSTRAINT "invoice_draft_request_project_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "invoice_draft_request"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project" ADD CONSTRAINT "project_project_manager_id_fkey" FOREIGN KEY ("project_manager_id") REFERENCES "employee"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project" ADD CONSTRAINT "project_project_status_id_fkey" FOREIGN KEY ("project_status_id") REFERENCES "project_status"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_service" ADD CONSTRAINT "project_service_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_service" ADD CONSTRAINT "project_service_default_service_id_fkey" FOREIGN KEY ("default_service_id") REFERENCES "default_service"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_service_hour_type" ADD CONSTRAINT "project_service_hour_type_project_service_id_fkey" FOREIGN KEY ("project_service_id") REFERENCES "project_service"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_service_hour_type" ADD CONSTRAINT "project_service_hour_type_hour_type_id_fkey" FOREIGN KEY ("hour_type_id") REFERENCES "hour_type"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_service_cost_type" ADD CONSTRAINT "project_service_cost_type_project_service_id_fkey" FOREIGN KEY ("project_service_id") REFERENCES "project_service"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_service_cost_type" ADD CONSTRAINT "project_service_cost_type_cost_type_id_fkey" FOREIGN KEY ("cost_type_id") REFERENCES "cost_type"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_service_installment" ADD CONSTRAINT "project_service_installment_project_service_id_fkey" FOREIGN KEY ("project_service_id") REFERENCES "project_service"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_employee" ADD CONSTRAINT "project_employee_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_employee" ADD CONSTRAINT "project_employee_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employee"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assignment" ADD CONSTRAINT "assignment_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assignment" ADD CONSTRAINT "assignment_project_service_id_fkey" FOREIGN KEY ("project_service_id") REFERENCES "project_service"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assignment" ADD CONSTRAINT "assignment_project_hour_type_id_fkey" FOREIGN KEY ("project_hour_type_id") REFERENCES "project_service_hour_type"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assignment_employee" ADD CONSTRAINT "assignment_employee_assignment_id_fkey" FOREIGN KEY ("assignment_id") REFERENCES "assignment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assignment_employee" ADD CONSTRAINT "assignment_employee_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employee"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "default_service_hour_type" ADD CONSTRAINT "default_service_hour_type_default_service_id_fkey" FOREIGN KEY ("default_service_id") REFERENCES "default_service"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "default_service_hour_type" ADD CONSTRAINT "default_service_hour_type_hour_type_id_fkey" FOREIGN KEY ("hour_type_id") REFERENCES "hour_type"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "default_service_cost_type" ADD CONSTRAINT "default_service_cost_type_default_service_id_fkey" FOREIGN KEY ("default_service_id") REFERENCES "default_service"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "default_service_cost_type" ADD CONSTRAINT "default_service_cost_type_cost_type_id_fkey" FOREIGN KEY ("cost_type_id") REFERENCES "cost_type"("id") ON DELETE CASCADE ON UPDATE CASCADE;
