-- Written by hand in Prisma's format: the schema engine (WebAssembly) panics while it
-- describes the workflow table's CHECK constraint, so `migrate create` cannot diff here.

-- AlterTable
ALTER TABLE "user_account" ADD COLUMN     "password_hash" TEXT;

-- AlterTable
ALTER TABLE "document" ADD COLUMN     "linked_expense_id" TEXT;

-- CreateTable
CREATE TABLE "storage_asset" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "owner_id" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "file_size" BIGINT NOT NULL,
    "content_type" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "created_by_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "storage_asset_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "storage_asset_kind_check" CHECK ("kind" IN ('logo', 'letterpaper', 'avatar', 'signature'))
);

-- CreateTable
CREATE TABLE "web_session" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "web_session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "login_link" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "login_link_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "document_environment_id_linked_expense_id_idx" ON "document"("environment_id", "linked_expense_id");

-- CreateIndex
CREATE UNIQUE INDEX "storage_asset_environment_id_kind_owner_id_key" ON "storage_asset"("environment_id", "kind", "owner_id");

-- CreateIndex
CREATE UNIQUE INDEX "web_session_secret_hash_key" ON "web_session"("secret_hash");

-- CreateIndex
CREATE INDEX "web_session_environment_id_user_id_idx" ON "web_session"("environment_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "login_link_secret_hash_key" ON "login_link"("secret_hash");

-- CreateIndex
CREATE INDEX "login_link_environment_id_user_id_idx" ON "login_link"("environment_id", "user_id");

-- AddForeignKey
ALTER TABLE "web_session" ADD CONSTRAINT "web_session_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "login_link" ADD CONSTRAINT "login_link_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
