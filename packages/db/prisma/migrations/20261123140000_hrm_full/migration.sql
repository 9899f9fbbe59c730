-- AlterTable
ALTER TABLE "employee" ADD COLUMN     "bank_account" TEXT,
ADD COLUMN     "civil_status_id" TEXT,
ADD COLUMN     "employee_type_id" TEXT,
ADD COLUMN     "hourly_cost_tariff" DECIMAL(14,4),
ADD COLUMN     "hourly_sales_tariff" DECIMAL(14,4),
ADD COLUMN     "status_id" TEXT,
ADD COLUMN     "supervisor_id" TEXT,
ADD COLUMN     "user_id" TEXT,
ADD COLUMN     "work_mobile" TEXT,
ADD COLUMN     "work_phone" TEXT;

-- CreateTable
CREATE TABLE "employee_status" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "employee_status_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "team" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "team_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "team_employee" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,

    CONSTRAINT "team_employee_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "civil_status" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "blocked" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "civil_status_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "employee_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "employee_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "employment_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "blocked" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "employment_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contract_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "blocked" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "contract_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "timetable" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,
    "start_date" DATE NOT NULL,
    "end_date" DATE,
    "has_odd_weeks" BOOLEAN NOT NULL DEFAULT false,
    "even_week" JSONB NOT NULL,
    "odd_week" JSONB NOT NULL,
    "even_week_hours" DECIMAL(6,2) NOT NULL,
    "odd_week_hours" DECIMAL(6,2) NOT NULL,
    "productivity_target" INTEGER,
    "should_write_hours" BOOLEAN NOT NULL DEFAULT true,
    "hourly_sales_tariff" DECIMAL(14,4),
    "hourly_cost_tariff" DECIMAL(14,4),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "timetable_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contract" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,
    "employer_id" TEXT,
    "employment_type_id" TEXT,
    "contract_type_id" TEXT,
    "start_date" DATE NOT NULL,
    "end_date" DATE,
    "salary_fulltime" DECIMAL(14,2),
    "parttime_percentage" DECIMAL(5,2) NOT NULL DEFAULT 100,
    "days_off" DECIMAL(6,2) NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "contract_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "leave_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "blocked" BOOLEAN NOT NULL DEFAULT false,
    "color" TEXT,
    "affects_balance" BOOLEAN NOT NULL DEFAULT true,
    "contract_grants" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "leave_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "leave_status" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "leave_status_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "leave" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,
    "leave_type_id" TEXT NOT NULL,
    "leave_status_id" TEXT,
    "kind" TEXT NOT NULL,
    "start_date" TIMESTAMPTZ(3),
    "end_date" TIMESTAMPTZ(3),
    "is_time_defined" BOOLEAN NOT NULL DEFAULT false,
    "year" INTEGER NOT NULL,
    "hours" DECIMAL(8,2) NOT NULL,
    "description" TEXT,
    "allow_negative" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "leave_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "absence_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "blocked" BOOLEAN NOT NULL DEFAULT false,
    "color" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "absence_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "absence" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "employee_id" TEXT NOT NULL,
    "absence_type_id" TEXT NOT NULL,
    "start_date" TIMESTAMPTZ(3) NOT NULL,
    "end_date" TIMESTAMPTZ(3),
    "is_time_defined" BOOLEAN NOT NULL DEFAULT false,
    "year" INTEGER NOT NULL,
    "hours" DECIMAL(8,2),
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "absence_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "employee_status_environment_id_updated_at_id_idx" ON "employee_status"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "employee_status_environment_id_key_key" ON "employee_status"("environment_id", "key");

-- CreateIndex
CREATE INDEX "team_environment_id_updated_at_id_idx" ON "team"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "team_environment_id_name_id_idx" ON "team"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "team_employee_environment_id_employee_id_idx" ON "team_employee"("environment_id", "employee_id");

-- CreateIndex
CREATE UNIQUE INDEX "team_employee_team_id_employee_id_key" ON "team_employee"("team_id", "employee_id");

-- CreateIndex
CREATE INDEX "civil_status_environment_id_updated_at_id_idx" ON "civil_status"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "employee_type_environment_id_updated_at_id_idx" ON "employee_type"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "employment_type_environment_id_updated_at_id_idx" ON "employment_type"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "contract_type_environment_id_updated_at_id_idx" ON "contract_type"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "timetable_environment_id_updated_at_id_idx" ON "timetable"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "timetable_environment_id_employee_id_start_date_idx" ON "timetable"("environment_id", "employee_id", "start_date");

-- CreateIndex
CREATE INDEX "contract_environment_id_updated_at_id_idx" ON "contract"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "contract_environment_id_employee_id_start_date_idx" ON "contract"("environment_id", "employee_id", "start_date");

-- CreateIndex
CREATE INDEX "leave_type_environment_id_updated_at_id_idx" ON "leave_type"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "leave_type_environment_id_label_id_idx" ON "leave_type"("environment_id", "label", "id");

-- CreateIndex
CREATE INDEX "leave_status_environment_id_updated_at_id_idx" ON "leave_status"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "leave_status_environment_id_key_key" ON "leave_status"("environment_id", "key");

-- CreateIndex
CREATE INDEX "leave_environment_id_updated_at_id_idx" ON "leave"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "leave_environment_id_employee_id_leave_type_id_year_idx" ON "leave"("environment_id", "employee_id", "leave_type_id", "year");

-- CreateIndex
CREATE INDEX "leave_environment_id_leave_type_id_year_idx" ON "leave"("environment_id", "leave_type_id", "year");

-- CreateIndex
CREATE INDEX "absence_type_environment_id_updated_at_id_idx" ON "absence_type"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "absence_environment_id_updated_at_id_idx" ON "absence"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "absence_environment_id_employee_id_start_date_idx" ON "absence"("environment_id", "employee_id", "start_date");

-- CreateIndex
CREATE INDEX "employee_environment_id_status_id_idx" ON "employee"("environment_id", "status_id");

-- CreateIndex
CREATE INDEX "employee_environment_id_person_id_idx" ON "employee"("environment_id", "person_id");

-- CreateIndex
CREATE INDEX "employee_environment_id_user_id_idx" ON "employee"("environment_id", "user_id");

-- AddForeignKey
ALTER TABLE "employee" ADD CONSTRAINT "employee_status_id_fkey" FOREIGN KEY ("status_id") REFERENCES "employee_status"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "employee" ADD CONSTRAINT "employee_supervisor_id_fkey" FOREIGN KEY ("supervisor_id") REFERENCES "employee"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "employee" ADD CONSTRAINT "employee_civil_status_id_fkey" FOREIGN KEY ("civil_status_id") REFERENCES "civil_status"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "employee" ADD CONSTRAINT "employee_employee_type_id_fkey" FOREIGN KEY ("employee_type_id") REFERENCES "employee_type"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "team_employee" ADD CONSTRAINT "team_employee_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "team_employee" ADD CONSTRAINT "team_employee_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employee"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "timetable" ADD CONSTRAINT "timetable_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employee"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contract" ADD CONSTRAINT "contract_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employee"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contract" ADD CONSTRAINT "contract_employment_type_id_fkey" FOREIGN KEY ("employment_type_id") REFERENCES "employment_type"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contract" ADD CONSTRAINT "contract_contract_type_id_fkey" FOREIGN KEY ("contract_type_id") REFERENCES "contract_type"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "leave" ADD CONSTRAINT "leave_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employee"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "leave" ADD CONSTRAINT "leave_leave_type_id_fkey" FOREIGN KEY ("leave_type_id") REFERENCES "leave_type"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "leave" ADD CONSTRAINT "leave_leave_status_id_fkey" FOREIGN KEY ("leave_status_id") REFERENCES "leave_status"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "absence" ADD CONSTRAINT "absence_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employee"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "absence" ADD CONSTRAINT "absence_absence_type_id_fkey" FOREIGN KEY ("absence_type_id") REFERENCES "absence_type"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Checks the domain also enforces (a write that slips past it still cannot store nonsense)
ALTER TABLE "timetable" ADD CONSTRAINT "timetable_period" CHECK ("end_date" IS NULL OR "end_date" >= "start_date");
ALTER TABLE "timetable" ADD CONSTRAINT "timetable_week_hours" CHECK ("even_week_hours" BETWEEN 0 AND 168 AND "odd_week_hours" BETWEEN 0 AND 168);
ALTER TABLE "contract" ADD CONSTRAINT "contract_period" CHECK ("end_date" IS NULL OR "end_date" >= "start_date");
ALTER TABLE "contract" ADD CONSTRAINT "contract_parttime" CHECK ("parttime_percentage" BETWEEN 0 AND 100 AND "days_off" >= 0);
ALTER TABLE "leave" ADD CONSTRAINT "leave_kind" CHECK ("kind" IN ('granted', 'taken'));
ALTER TABLE "leave" ADD CONSTRAINT "leave_hours" CHECK ("hours" >= 0);
ALTER TABLE "leave" ADD CONSTRAINT "leave_period" CHECK ("end_date" IS NULL OR "start_date" IS NULL OR "end_date" >= "start_date");
ALTER TABLE "absence" ADD CONSTRAINT "absence_period" CHECK ("end_date" IS NULL OR "end_date" >= "start_date");

-- HRM reference data for the environments that exist already (new ones get it from the environment seeders)
INSERT INTO "employee_status" ("id", "environment_id", "key", "label", "position", "updated_at")
SELECT 'employeestatus:' || md5(e.id || ':' || s.key), e.id, s.key, s.label, s.position, now()
  FROM "environment" e
 CROSS JOIN (VALUES ('active', 'Active', 0), ('inactive', 'Inactive', 1), ('unemployed', 'Out of employment', 2)) AS s(key, label, position)
 WHERE NOT EXISTS (SELECT 1 FROM "employee_status" x WHERE x.environment_id = e.id);

UPDATE "employee" m SET "status_id" = s.id
  FROM "employee_status" s
 WHERE s.environment_id = m.environment_id AND s.key = m.employment_status AND m.status_id IS NULL;

INSERT INTO "civil_status" ("id", "environment_id", "label", "updated_at")
SELECT 'civilstatus:' || md5(e.id || ':' || c.label), e.id, c.label, now()
  FROM "environment" e
 CROSS JOIN (VALUES ('Single'), ('Married'), ('Registered partnership'), ('Divorced'), ('Widowed')) AS c(label)
 WHERE NOT EXISTS (SELECT 1 FROM "civil_status" x WHERE x.environment_id = e.id);

INSERT INTO "employee_type" ("id", "environment_id", "label", "updated_at")
SELECT 'employeetype:' || md5(e.id || ':' || c.label), e.id, c.label, now()
  FROM "environment" e CROSS JOIN (VALUES ('Employee'), ('Freelancer'), ('Intern')) AS c(label)
 WHERE NOT EXISTS (SELECT 1 FROM "employee_type" x WHERE x.environment_id = e.id);

INSERT INTO "employment_type" ("id", "environment_id", "name", "updated_at")
SELECT 'employmenttype:' || md5(e.id || ':' || c.name), e.id, c.name, now()
  FROM "environment" e CROSS JOIN (VALUES ('Permanent'), ('Temporary'), ('On call')) AS c(name)
 WHERE NOT EXISTS (SELECT 1 FROM "employment_type" x WHERE x.environment_id = e.id);

INSERT INTO "contract_type" ("id", "environment_id", "name", "updated_at")
SELECT 'contracttype:' || md5(e.id || ':' || c.name), e.id, c.name, now()
  FROM "environment" e CROSS JOIN (VALUES ('Full-time'), ('Part-time')) AS c(name)
 WHERE NOT EXISTS (SELECT 1 FROM "contract_type" x WHERE x.environment_id = e.id);

INSERT INTO "leave_type" ("id", "environment_id", "label", "color", "affects_balance", "contract_grants", "updated_at")
SELECT 'leavetype:' || md5(e.id || ':' || t.label), e.id, t.label, t.color, t.affects, t.grants, now()
  FROM "environment" e
 CROSS JOIN (VALUES ('Vacation', '#43a047', true, true), ('Time for time', '#1e88e5', true, false),
                    ('Special leave', '#8e24aa', false, false)) AS t(label, color, affects, grants)
 WHERE NOT EXISTS (SELECT 1 FROM "leave_type" x WHERE x.environment_id = e.id);

INSERT INTO "leave_status" ("id", "environment_id", "key", "label", "updated_at")
SELECT 'leavestatus:' || md5(e.id || ':' || s.key), e.id, s.key, s.label, now()
  FROM "environment" e
 CROSS JOIN (VALUES ('requested', 'Requested'), ('approved', 'Approved'), ('rejected', 'Rejected')) AS s(key, label)
 WHERE NOT EXISTS (SELECT 1 FROM "leave_status" x WHERE x.environment_id = e.id);

INSERT INTO "absence_type" ("id", "environment_id", "label", "color", "updated_at")
SELECT 'absencetype:' || md5(e.id || ':' || t.label), e.id, t.label, t.color, now()
  FROM "environment" e
 CROSS JOIN (VALUES ('Sickness', '#e53935'), ('Medical appointment', '#fb8c00'), ('Other', '#757575')) AS t(label, color)
 WHERE NOT EXISTS (SELECT 1 FROM "absence_type" x WHERE x.environment_id = e.id);

-- the employee custom-field model (definitions only: hrm/employeecustomfields, hrm/employeecustomfieldgroups)
INSERT INTO "custom_field_model" ("id", "environment_id", "key", "label")
SELECT 'customfieldmodel:' || md5(e.id || ':employee'), e.id, 'employee', 'Employee'
  FROM "environment" e
 WHERE NOT EXISTS (SELECT 1 FROM "custom_field_model" x WHERE x.environment_id = e.id AND x.key = 'employee');
