-- CreateTable
CREATE TABLE "default_workflow_group" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "default_workflow_group_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "default_workflow" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "group_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "applies_to" TEXT NOT NULL,
    "sequential" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "default_workflow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "default_action" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "default_workflow_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "default_action_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "default_task" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "default_workflow_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "due_in_days" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "default_task_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflow" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "default_workflow_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "sequential" BOOLEAN NOT NULL DEFAULT false,
    "organization_id" TEXT,
    "person_id" TEXT,
    "project_id" TEXT,
    "sale_id" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "workflow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflow_task" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "assignee_employee_id" TEXT,
    "due_date" DATE,
    "status" TEXT NOT NULL DEFAULT 'open',
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "workflow_task_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "default_workflow_group_environment_id_updated_at_id_idx" ON "default_workflow_group"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "default_workflow_environment_id_updated_at_id_idx" ON "default_workflow"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "default_workflow_environment_id_group_id_idx" ON "default_workflow"("environment_id", "group_id");

-- CreateIndex
CREATE INDEX "default_action_environment_id_updated_at_id_idx" ON "default_action"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "default_action_environment_id_default_workflow_id_idx" ON "default_action"("environment_id", "default_workflow_id");

-- CreateIndex
CREATE INDEX "default_task_environment_id_updated_at_id_idx" ON "default_task"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "default_task_environment_id_default_workflow_id_idx" ON "default_task"("environment_id", "default_workflow_id");

-- CreateIndex
CREATE INDEX "workflow_environment_id_updated_at_id_idx" ON "workflow"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "workflow_environment_id_created_at_id_idx" ON "workflow"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "workflow_environment_id_organization_id_idx" ON "workflow"("environment_id", "organization_id");

-- CreateIndex
CREATE INDEX "workflow_environment_id_person_id_idx" ON "workflow"("environment_id", "person_id");

-- CreateIndex
CREATE INDEX "workflow_environment_id_project_id_idx" ON "workflow"("environment_id", "project_id");

-- CreateIndex
CREATE INDEX "workflow_environment_id_sale_id_idx" ON "workflow"("environment_id", "sale_id");

-- CreateIndex
CREATE INDEX "workflow_task_environment_id_updated_at_id_idx" ON "workflow_task"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "workflow_task_environment_id_workflow_id_position_idx" ON "workflow_task"("environment_id", "workflow_id", "position");

-- CreateIndex
CREATE INDEX "workflow_task_environment_id_assignee_employee_id_idx" ON "workflow_task"("environment_id", "assignee_employee_id");

-- AddForeignKey
ALTER TABLE "default_workflow" ADD CONSTRAINT "default_workflow_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "default_workflow_group"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "default_action" ADD CONSTRAINT "default_action_default_workflow_id_fkey" FOREIGN KEY ("default_workflow_id") REFERENCES "default_workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "default_task" ADD CONSTRAINT "default_task_default_workflow_id_fkey" FOREIGN KEY ("default_workflow_id") REFERENCES "default_workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow" ADD CONSTRAINT "workflow_default_workflow_id_fkey" FOREIGN KEY ("default_workflow_id") REFERENCES "default_workflow"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow" ADD CONSTRAINT "workflow_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow" ADD CONSTRAINT "workflow_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow" ADD CONSTRAINT "workflow_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow" ADD CONSTRAINT "workflow_sale_id_fkey" FOREIGN KEY ("sale_id") REFERENCES "sale"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_task" ADD CONSTRAINT "workflow_task_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_task" ADD CONSTRAINT "workflow_task_assignee_employee_id_fkey" FOREIGN KEY ("assignee_employee_id") REFERENCES "employee"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- A workflow runs on exactly one entity.
ALTER TABLE "workflow" ADD CONSTRAINT "workflow_one_link" CHECK (num_nonnulls("organization_id", "person_id", "project_id", "sale_id") = 1);

-- The default workflows of environments that existed before this migration (new ones get them from
-- the domain's seeder, packages/domain/src/workflows/default-workflows.seed.ts: keep the two alike).
INSERT INTO "default_workflow_group" ("id", "environment_id", "name", "position", "updated_at")
SELECT 'defaultworkflowgroup:' || md5(e.id || ':' || g.name), e.id, g.name, g.position, now()
  FROM "environment" e CROSS JOIN (VALUES ('Relations', 0), ('Projects', 1), ('Sales', 2)) AS g(name, position)
 WHERE NOT EXISTS (SELECT 1 FROM "default_workflow_group" x WHERE x.environment_id = e.id);

INSERT INTO "default_workflow" ("id", "environment_id", "group_id", "name", "description", "applies_to", "sequential", "updated_at")
SELECT 'defaultworkflow:' || md5(e.id || ':' || w.name), e.id, 'defaultworkflowgroup:' || md5(e.id || ':' || w.grp),
       w.name, w.description, w.applies_to, w.sequential, now()
  FROM "environment" e
 CROSS JOIN (VALUES
   ('Relations', 'New customer onboarding', 'From signed agreement to a first meeting', 'organization', true),
   ('Projects', 'Project kick-off', 'Everything a project needs before the first hour is booked', 'project', false),
   ('Sales', 'Quote follow-up', 'After a quote has been sent', 'sale', true),
   ('Relations', 'New contact', 'A person added to the CRM', 'person', false)) AS w(grp, name, description, applies_to, sequential)
 WHERE NOT EXISTS (SELECT 1 FROM "default_workflow" x WHERE x.environment_id = e.id);

INSERT INTO "default_action" ("id", "environment_id", "default_workflow_id", "name", "position", "updated_at")
SELECT 'defaultaction:' || md5(e.id || ':' || a.workflow || ':' || a.name), e.id, 'defaultworkflow:' || md5(e.id || ':' || a.workflow),
       a.name, a.position, now()
  FROM "environment" e
 CROSS JOIN (VALUES ('New customer onboarding', 'Create the customer folder', 0),
                    ('Project kick-off', 'Open the project channel', 0)) AS a(workflow, name, position)
 WHERE NOT EXISTS (SELECT 1 FROM "default_action" x WHERE x.environment_id = e.id);

INSERT INTO "default_task" ("id", "environment_id", "default_workflow_id", "name", "position", "due_in_days", "updated_at")
SELECT 'defaulttask:' || md5(e.id || ':' || t.workflow || ':' || t.name), e.id, 'defaultworkflow:' || md5(e.id || ':' || t.workflow),
       t.name, t.position, t.due_in_days, now()
  FROM "environment" e
 CROSS JOIN (VALUES
   ('New customer onboarding', 'Check the company details', 0, 1),
   ('New customer onboarding', 'Send the welcome pack', 1, 3),
   ('New customer onboarding', 'Plan the kick-off meeting', 2, 7),
   ('Project kick-off', 'Assign the project team', 0, 2),
   ('Project kick-off', 'Agree the planning with the customer', 1, 5),
   ('Project kick-off', 'Set up the hour registration', 2, 5),
   ('Quote follow-up', 'Call the contact', 0, 3),
   ('Quote follow-up', 'Send the revised quote', 1, 10),
   ('New contact', 'Add the contact to the mailing lists', 0, 2)) AS t(workflow, name, position, due_in_days)
 WHERE NOT EXISTS (SELECT 1 FROM "default_task" x WHERE x.environment_id = e.id);
