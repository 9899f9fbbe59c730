-- AlterTable
ALTER TABLE "assignment" ADD COLUMN     "assignment_status_id" TEXT;

-- CreateTable
CREATE TABLE "assignment_status" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "color" TEXT,
    "is_done" BOOLEAN NOT NULL DEFAULT false,
    "is_blocked" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "assignment_status_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shared_item" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "type" TEXT,
    "employee_id" TEXT,
    "shared" TEXT NOT NULL DEFAULT 'shared',
    "data" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "shared_item_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "assignment_status_environment_id_updated_at_id_idx" ON "assignment_status"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "assignment_status_environment_id_position_id_idx" ON "assignment_status"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "shared_item_environment_id_updated_at_id_idx" ON "shared_item"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "shared_item_environment_id_tag_id_idx" ON "shared_item"("environment_id", "tag", "id");

-- AddForeignKey
ALTER TABLE "assignment" ADD CONSTRAINT "assignment_assignment_status_id_fkey" FOREIGN KEY ("assignment_status_id") REFERENCES "assignment_status"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The assignment statuses every environment starts with (new environments get them from the seeder).
INSERT INTO "assignment_status" ("id", "environment_id", "name", "color", "is_done", "position", "updated_at")
SELECT 'assignmentstatus:' || md5(e.id || ':' || s.name), e.id, s.name, s.color, s.is_done, s.position, now()
  FROM "environment" e
 CROSS JOIN (VALUES ('To do', '#9e9e9e', false, 0), ('In progress', '#1976d2', false, 1), ('Done', '#2e7d32', true, 2))
       AS s(name, color, is_done, position)
 WHERE NOT EXISTS (SELECT 1 FROM "assignment_status" x WHERE x.environment_id = e.id);
