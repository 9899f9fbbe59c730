-- AlterTable
ALTER TABLE "sale" ADD COLUMN     "chance_to_score" INTEGER,
ADD COLUMN     "contact_id" TEXT,
ADD COLUMN     "divergent_payment_term_id" TEXT,
ADD COLUMN     "expected_closing_date" DATE,
ADD COLUMN     "expected_revenue" DECIMAL(14,4),
ADD COLUMN     "my_organization_profile_id" TEXT,
ADD COLUMN     "note" TEXT,
ADD COLUMN     "responsible_employee_id" TEXT,
ADD COLUMN     "start_date" DATE;

-- CreateTable
CREATE TABLE "sale_project" (
    "environment_id" TEXT NOT NULL,
    "sale_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sale_project_pkey" PRIMARY KEY ("sale_id","project_id")
);

-- CreateIndex
CREATE INDEX "sale_project_environment_id_project_id_idx" ON "sale_project"("environment_id", "project_id");

-- CreateIndex
CREATE INDEX "sale_environment_id_created_at_id_idx" ON "sale"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "sale_environment_id_organization_id_idx" ON "sale"("environment_id", "organization_id");

-- CreateIndex
CREATE INDEX "sale_environment_id_person_id_idx" ON "sale"("environment_id", "person_id");

-- AddForeignKey
ALTER TABLE "sale_project" ADD CONSTRAINT "sale_project_sale_id_fkey" FOREIGN KEY ("sale_id") REFERENCES "sale"("id") ON DELETE CASCADE ON UPDATE CASCADE;
