-- CreateTable
CREATE TABLE "maintenance_window" (
    "scope" TEXT NOT NULL,
    "message" TEXT,
    "ends_at" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "maintenance_window_pkey" PRIMARY KEY ("scope")
);
