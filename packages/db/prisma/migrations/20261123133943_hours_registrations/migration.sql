-- CreateTable
CREATE TABLE "hour_registration" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "project_service_id" TEXT NOT NULL,
    "hour_type_id" TEXT NOT NULL,
    "start_date" DATE NOT NULL,
    "duration_minutes" INTEGER NOT NULL,
    "billable" BOOLEAN NOT NULL,
    "description" TEXT,
    "approval_status" TEXT NOT NULL DEFAULT 'open',
    "invoice_id" TEXT,
    "tariff" DECIMAL(14,4),
    "source" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "hour_registration_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "approval_status" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "approval_status_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "hour_approval" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,
    "week_start" DATE NOT NULL,
    "status" TEXT NOT NULL,
    "actor_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "hour_approval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "timer" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,
    "project_id" TEXT,
    "project_service_id" TEXT,
    "hour_type_id" TEXT,
    "state" TEXT NOT NULL DEFAULT 'running',
    "seconds_before" INTEGER NOT NULL DEFAULT 0,
    "running_since" TIMESTAMPTZ(3),
    "metadata" TEXT,
    "related_hours_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "timer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mileage" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "start_date" DATE NOT NULL,
    "mileage" DECIMAL(10,2) NOT NULL,
    "tariff" DECIMAL(14,4),
    "related_hours_id" TEXT,
    "source" TEXT,
    "note" TEXT,
    "approval_status" TEXT NOT NULL DEFAULT 'open',
    "invoice_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mileage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "expense" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "project_service_id" TEXT NOT NULL,
    "cost_type_id" TEXT NOT NULL,
    "start_date" DATE NOT NULL,
    "amount" DECIMAL(14,4) NOT NULL,
    "tariff" DECIMAL(14,4),
    "purchase_price" DECIMAL(14,4),
    "billable" BOOLEAN NOT NULL,
    "note" TEXT,
    "approval_status" TEXT NOT NULL DEFAULT 'open',
    "invoice_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "expense_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "expense_attachment" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "expense_id" TEXT NOT NULL,
    "document_id" TEXT NOT NULL,

    CONSTRAINT "expense_attachment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "timesheet_row" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "project_service_id" TEXT NOT NULL,
    "item_type_id" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'hours',
    "start_date" DATE NOT NULL,
    "end_date" DATE NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "timesheet_row_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "hour_registration_environment_id_employee_id_start_date_id_idx" ON "hour_registration"("environment_id", "employee_id", "start_date", "id");

-- CreateIndex
CREATE INDEX "hour_registration_environment_id_updated_at_id_idx" ON "hour_registration"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "hour_registration_environment_id_project_id_start_date_id_idx" ON "hour_registration"("environment_id", "project_id", "start_date", "id");

-- CreateIndex
CREATE INDEX "hour_registration_environment_id_project_service_id_idx" ON "hour_registration"("environment_id", "project_service_id");

-- CreateIndex
CREATE INDEX "hour_registration_invoice_id_idx" ON "hour_registration"("invoice_id");

-- CreateIndex
CREATE INDEX "approval_status_environment_id_updated_at_id_idx" ON "approval_status"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "approval_status_environment_id_key_key" ON "approval_status"("environment_id", "key");

-- CreateIndex
CREATE INDEX "hour_approval_environment_id_employee_id_week_start_created_idx" ON "hour_approval"("environment_id", "employee_id", "week_start", "created_at");

-- CreateIndex
CREATE INDEX "hour_approval_environment_id_updated_at_id_idx" ON "hour_approval"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "timer_environment_id_employee_id_state_idx" ON "timer"("environment_id", "employee_id", "state");

-- CreateIndex
CREATE INDEX "timer_environment_id_updated_at_id_idx" ON "timer"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "mileage_environment_id_employee_id_start_date_id_idx" ON "mileage"("environment_id", "employee_id", "start_date", "id");

-- CreateIndex
CREATE INDEX "mileage_environment_id_updated_at_id_idx" ON "mileage"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "mileage_environment_id_project_id_idx" ON "mileage"("environment_id", "project_id");

-- CreateIndex
CREATE INDEX "expense_environment_id_employee_id_start_date_id_idx" ON "expense"("environment_id", "employee_id", "start_date", "id");

-- CreateIndex
CREATE INDEX "expense_environment_id_updated_at_id_idx" ON "expense"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "expense_environment_id_project_id_idx" ON "expense"("environment_id", "project_id");

-- CreateIndex
CREATE INDEX "expense_environment_id_project_service_id_idx" ON "expense"("environment_id", "project_service_id");

-- CreateIndex
CREATE INDEX "expense_attachment_environment_id_expense_id_idx" ON "expense_attachment"("environment_id", "expense_id");

-- CreateIndex
CREATE UNIQUE INDEX "expense_attachment_expense_id_document_id_key" ON "expense_attachment"("expense_id", "document_id");

-- CreateIndex
CREATE INDEX "timesheet_row_environment_id_employee_id_start_date_id_idx" ON "timesheet_row"("environment_id", "employee_id", "start_date", "id");

-- CreateIndex
CREATE INDEX "timesheet_row_environment_id_updated_at_id_idx" ON "timesheet_row"("environment_id", "updated_at", "id");

-- AddForeignKey
ALTER TABLE "hour_registration" ADD CONSTRAINT "hour_registration_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employee"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hour_registration" ADD CONSTRAINT "hour_registration_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hour_registration" ADD CONSTRAINT "hour_registration_project_service_id_fkey" FOREIGN KEY ("project_service_id") REFERENCES "project_service"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hour_registration" ADD CONSTRAINT "hour_registration_hour_type_id_fkey" FOREIGN KEY ("hour_type_id") REFERENCES "hour_type"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hour_registration" ADD CONSTRAINT "hour_registration_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoice"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hour_approval" ADD CONSTRAINT "hour_approval_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employee"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "timer" ADD CONSTRAINT "timer_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employee"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "timer" ADD CONSTRAINT "timer_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "timer" ADD CONSTRAINT "timer_project_service_id_fkey" FOREIGN KEY ("project_service_id") REFERENCES "project_service"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "timer" ADD CONSTRAINT "timer_hour_type_id_fkey" FOREIGN KEY ("hour_type_id") REFERENCES "hour_type"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "timer" ADD CONSTRAINT "timer_related_hours_id_fkey" FOREIGN KEY ("related_hours_id") REFERENCES "hour_registration"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mileage" ADD CONSTRAINT "mileage_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employee"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mileage" ADD CONSTRAINT "mileage_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mileage" ADD CONSTRAINT "mileage_related_hours_id_fkey" FOREIGN KEY ("related_hours_id") REFERENCES "hour_registration"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mileage" ADD CONSTRAINT "mileage_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoice"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "expense" ADD CONSTRAINT "expense_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employee"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "expense" ADD CONSTRAINT "expense_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "expense" ADD CONSTRAINT "expense_project_service_id_fkey" FOREIGN KEY ("project_service_id") REFERENCES "project_service"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "expense" ADD CONSTRAINT "expense_cost_type_id_fkey" FOREIGN KEY ("cost_type_id") REFERENCES "cost_type"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "expense" ADD CONSTRAINT "expense_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoice"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "expense_attachment" ADD CONSTRAINT "expense_attachment_expense_id_fkey" FOREIGN KEY ("expense_id") REFERENCES "expense"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "expense_attachment" ADD CONSTRAINT "expense_attachment_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "document"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "timesheet_row" ADD CONSTRAINT "timesheet_row_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employee"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "timesheet_row" ADD CONSTRAINT "timesheet_row_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "timesheet_row" ADD CONSTRAINT "timesheet_row_project_service_id_fkey" FOREIGN KEY ("project_service_id") REFERENCES "project_service"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written (issue 10) ------------------------------------------------------

-- a registration is at least a minute and at most a day
ALTER TABLE "hour_registration" ADD CONSTRAINT "hour_registration_duration_check" CHECK ("duration_minutes" > 0 AND "duration_minutes" <= 1440);
ALTER TABLE "hour_registration" ADD CONSTRAINT "hour_registration_approval_status_check" CHECK ("approval_status" IN ('open', 'submitted', 'approved', 'rejected'));
ALTER TABLE "hour_approval" ADD CONSTRAINT "hour_approval_status_check" CHECK ("status" IN ('open', 'submitted', 'approved', 'rejected'));
ALTER TABLE "timer" ADD CONSTRAINT "timer_state_check" CHECK ("state" IN ('running', 'paused', 'finished'));
ALTER TABLE "mileage" ADD CONSTRAINT "mileage_mileage_check" CHECK ("mileage" > 0);
ALTER TABLE "expense" ADD CONSTRAINT "expense_amount_check" CHECK ("amount" > 0);

-- at most one running timer per employee
CREATE UNIQUE INDEX "timer_one_running_per_employee" ON "timer" ("employee_id") WHERE "state" = 'running';

-- approval statuses of the environments that exist already (new ones are seeded on creation)
INSERT INTO "approval_status" ("id", "environment_id", "key", "label", "position", "updated_at")
SELECT 'approvalstatus:' || gen_random_uuid()::text, e."id", s."key", s."label", s."position", now()
  FROM "environment" e
 CROSS JOIN (VALUES ('open', 'Open', 0), ('submitted', 'Submitted', 1), ('approved', 'Approved', 2), ('rejected', 'Rejected', 3))
       AS s("key", "label", "position");
