-- A copy or import of an environment in progress (issue 29, section 6): the target environment
-- exists under a name no host can address until the copy completes. One row per copy records
-- where it stands, so that a copy killed half-way can be resumed or removed.
CREATE TABLE "environment_copy" (
    "target_environment_id" TEXT NOT NULL,
    "target_name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "source_environment_id" TEXT,
    "source_name" TEXT NOT NULL,
    "salt" TEXT NOT NULL,
    "progress" JSONB NOT NULL DEFAULT '{}',
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "environment_copy_pkey" PRIMARY KEY ("target_environment_id")
);

CREATE UNIQUE INDEX "environment_copy_target_name_key" ON "environment_copy"("target_name");

-- Files written for a copy in progress: recorded before each is written, so that an abort removes
-- them even when the rows that own them were never committed.
CREATE TABLE "environment_copy_file" (
    "target_environment_id" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    CONSTRAINT "environment_copy_file_pkey" PRIMARY KEY ("target_environment_id", "storage_key")
);

-- References that point into their own table (an employee's supervisor, a credit note's invoice):
-- inserted empty and set once the whole table is there, in the copy's last step.
CREATE TABLE "environment_copy_deferred" (
    "target_environment_id" TEXT NOT NULL,
    "table_name" TEXT NOT NULL,
    "column_name" TEXT NOT NULL,
    "row_id" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    CONSTRAINT "environment_copy_deferred_pkey" PRIMARY KEY ("target_environment_id", "table_name", "column_name", "row_id")
);
