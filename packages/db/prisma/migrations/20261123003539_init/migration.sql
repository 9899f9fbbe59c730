-- CreateTable
CREATE TABLE "environment" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "environment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_account" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "rights" JSONB NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "user_account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_token" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "label" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "deactivated_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_token_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "environment_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "entity_type" TEXT NOT NULL,
    "entity_id" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "relation_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "color" TEXT,
    "type" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "relation_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "industry" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "industry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "organization_size" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "organization_size_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "organization" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "coc_code" TEXT,
    "vat_number" TEXT,
    "email" TEXT,
    "phone" TEXT,
    "url" TEXT,
    "note" TEXT,
    "linkedin_url" TEXT,
    "has_different_postal_address" BOOLEAN NOT NULL DEFAULT false,
    "relation_type_id" TEXT,
    "industry_id" TEXT,
    "organization_size_id" TEXT,
    "invoice_receiver" TEXT,
    "allow_autocollect" BOOLEAN NOT NULL DEFAULT false,
    "bank_account" TEXT,
    "bank_bic" TEXT,
    "relation_number" TEXT,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "send_invoice_email_to_contact" BOOLEAN NOT NULL DEFAULT false,
    "send_invoice_email_to_project_contact" BOOLEAN NOT NULL DEFAULT false,
    "send_invoice_email_to_fixed_email" BOOLEAN NOT NULL DEFAULT false,
    "send_invoice_email_to_cc" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "organization_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "organization_address" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "type" TEXT,
    "line_1" TEXT,
    "line_2" TEXT,
    "postal_code" TEXT,
    "province" TEXT,
    "locality" TEXT,
    "country_code" TEXT,
    "country_id" TEXT,

    CONSTRAINT "organization_address_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "person" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "first_name" TEXT,
    "family_name" TEXT NOT NULL,
    "email" TEXT,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "person_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "employee" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "person_id" TEXT,
    "name" TEXT NOT NULL,
    "work_email" TEXT,
    "employment_status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "employee_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "invoice_number" TEXT,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "organization_id" TEXT,
    "person_id" TEXT,
    "project_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "invoice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "project_number" TEXT,
    "organization_id" TEXT,
    "person_id" TEXT,
    "billable" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sale" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "organization_id" TEXT,
    "person_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sale_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "environment_name_key" ON "environment"("name");

-- CreateIndex
CREATE UNIQUE INDEX "user_account_environment_id_email_key" ON "user_account"("environment_id", "email");

-- CreateIndex
CREATE UNIQUE INDEX "api_token_key_key" ON "api_token"("key");

-- CreateIndex
CREATE INDEX "api_token_environment_id_user_id_idx" ON "api_token"("environment_id", "user_id");

-- CreateIndex
CREATE INDEX "event_environment_id_seq_idx" ON "event"("environment_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "event_seq_key" ON "event"("seq");

-- CreateIndex
CREATE INDEX "relation_type_environment_id_label_idx" ON "relation_type"("environment_id", "label");

-- CreateIndex
CREATE INDEX "industry_environment_id_name_idx" ON "industry"("environment_id", "name");

-- CreateIndex
CREATE INDEX "organization_size_environment_id_name_idx" ON "organization_size"("environment_id", "name");

-- CreateIndex
CREATE INDEX "organization_environment_id_updated_at_id_idx" ON "organization"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "organization_environment_id_created_at_id_idx" ON "organization"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "organization_environment_id_name_id_idx" ON "organization"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "organization_address_environment_id_locality_idx" ON "organization_address"("environment_id", "locality");

-- CreateIndex
CREATE UNIQUE INDEX "organization_address_organization_id_kind_key" ON "organization_address"("organization_id", "kind");

-- CreateIndex
CREATE INDEX "person_environment_id_updated_at_id_idx" ON "person"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "person_environment_id_family_name_id_idx" ON "person"("environment_id", "family_name", "id");

-- CreateIndex
CREATE INDEX "employee_environment_id_updated_at_id_idx" ON "employee"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "employee_environment_id_name_id_idx" ON "employee"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "invoice_environment_id_updated_at_id_idx" ON "invoice"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "project_environment_id_updated_at_id_idx" ON "project"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "project_environment_id_name_id_idx" ON "project"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "sale_environment_id_updated_at_id_idx" ON "sale"("environment_id", "updated_at", "id");

-- AddForeignKey
ALTER TABLE "api_token" ADD CONSTRAINT "api_token_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "organization" ADD CONSTRAINT "organization_relation_type_id_fkey" FOREIGN KEY ("relation_type_id") REFERENCES "relation_type"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "organization" ADD CONSTRAINT "organization_industry_id_fkey" FOREIGN KEY ("industry_id") REFERENCES "industry"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "organization" ADD CONSTRAINT "organization_organization_size_id_fkey" FOREIGN KEY ("organization_size_id") REFERENCES "organization_size"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "organization_address" ADD CONSTRAINT "organization_address_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
