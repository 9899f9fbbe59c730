-- CreateTable
CREATE TABLE "sale_service_cost_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "sale_service_id" TEXT NOT NULL,
    "cost_type_id" TEXT NOT NULL,
    "budgeted_amount" DECIMAL(14,4),
    "tariff" DECIMAL(14,4),
    "purchase_tariff" DECIMAL(14,4),
    "purchase_margin" DECIMAL(14,4),
    "billable" BOOLEAN NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sale_service_cost_type_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sale_service_cost_type_environment_id_updated_at_id_idx" ON "sale_service_cost_type"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "sale_service_cost_type_environment_id_sale_service_id_idx" ON "sale_service_cost_type"("environment_id", "sale_service_id");

-- CreateIndex
CREATE INDEX "sale_service_cost_type_cost_type_id_idx" ON "sale_service_cost_type"("cost_type_id");

-- AddForeignKey
ALTER TABLE "sale_service_cost_type" ADD CONSTRAINT "sale_service_cost_type_sale_service_id_fkey" FOREIGN KEY ("sale_service_id") REFERENCES "sale_service"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sale_service_cost_type" ADD CONSTRAINT "sale_service_cost_type_cost_type_id_fkey" FOREIGN KEY ("cost_type_id") REFERENCES "cost_type"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
