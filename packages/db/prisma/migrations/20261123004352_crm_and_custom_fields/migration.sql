-- AlterTable
ALTER TABLE "organization" ADD COLUMN     "debtor_settings" JSONB,
ADD COLUMN     "relation_manager_id" TEXT;

-- AlterTable
ALTER TABLE "person" ADD COLUMN     "bank_account" TEXT,
ADD COLUMN     "bank_bic" TEXT,
ADD COLUMN     "custom_salutation" TEXT,
ADD COLUMN     "date_of_birth" DATE,
ADD COLUMN     "facebook_url" TEXT,
ADD COLUMN     "family_name_prefix" TEXT,
ADD COLUMN     "full_name" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "gender_id" TEXT,
ADD COLUMN     "initials" TEXT,
ADD COLUMN     "invoice_receiver" TEXT,
ADD COLUMN     "linkedin_url" TEXT,
ADD COLUMN     "mailing_list_email" TEXT,
ADD COLUMN     "note" TEXT,
ADD COLUMN     "phone" TEXT,
ADD COLUMN     "relation_manager_id" TEXT,
ADD COLUMN     "relation_number" TEXT,
ADD COLUMN     "relation_type_id" TEXT,
ADD COLUMN     "twitter_url" TEXT,
ADD COLUMN     "use_custom_salutation" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "website_url" TEXT,
ALTER COLUMN "family_name" DROP NOT NULL;

-- CreateTable
CREATE TABLE "person_address" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "person_id" TEXT NOT NULL,
    "type" TEXT,
    "line_1" TEXT,
    "line_2" TEXT,
    "postal_code" TEXT,
    "province" TEXT,
    "locality" TEXT,
    "country_code" TEXT,
    "country_id" TEXT,

    CONSTRAINT "person_address_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact_person" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "person_id" TEXT NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "work_function" TEXT,
    "work_email" TEXT,
    "work_phone" TEXT,
    "work_mobile" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "contact_person_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "country" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "country_code" TEXT NOT NULL,
    "language_code" TEXT,

    CONSTRAINT "country_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gender" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "gender_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "interest" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "api_name" TEXT,
    "organization" BOOLEAN NOT NULL DEFAULT true,
    "person" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "interest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "organization_interest" (
    "environment_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "interest_id" TEXT NOT NULL,

    CONSTRAINT "organization_interest_pkey" PRIMARY KEY ("organization_id","interest_id")
);

-- CreateTable
CREATE TABLE "person_interest" (
    "environment_id" TEXT NOT NULL,
    "person_id" TEXT NOT NULL,
    "interest_id" TEXT NOT NULL,

    CONSTRAINT "person_interest_pkey" PRIMARY KEY ("person_id","interest_id")
);

-- CreateTable
CREATE TABLE "mailing_list" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "mailing_list_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "person_mailing_list" (
    "environment_id" TEXT NOT NULL,
    "person_id" TEXT NOT NULL,
    "mailing_list_id" TEXT NOT NULL,

    CONSTRAINT "person_mailing_list_pkey" PRIMARY KEY ("person_id","mailing_list_id")
);


-- CreateTable
CREATE TABLE "my_organization_profile" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "organization_id" TEXT,
    "name" TEXT,
    "coc_code" TEXT,
    "vat_number" TEXT,
    "bank_account" TEXT,
    "blocked" BOOLEAN NOT NULL DEFAULT false,
    "main_profile" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "my_organization_profile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "my_organization_profile_access" (
    "environment_id" TEXT NOT NULL,
    "profile_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,

    CONSTRAINT "my_organization_profile_access_pkey" PRIMARY KEY ("profile_id","user_id")
);

-- CreateTable
CREATE TABLE "custom_field_model" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,

    CONSTRAINT "custom_field_model_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_field_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "value_type" TEXT NOT NULL,
    "render_type" TEXT NOT NULL,
    "has_options" BOOLEAN NOT NULL DEFAULT false,
    "is_mandatory_configurable" BOOLEAN NOT NULL DEFAULT true,
    "is_searchable_configurable" BOOLEAN NOT NULL DEFAULT true,
    "is_filterable_configurable" BOOLEAN NOT NULL DEFAULT true,
    "is_collective_mutatable_configurable" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "custom_field_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_field_group" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "type" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "custom_field_group_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_field" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "model_key" TEXT NOT NULL,
    "group_id" TEXT,
    "type_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "filterable" BOOLEAN NOT NULL DEFAULT true,
    "searchable" BOOLEAN NOT NULL DEFAULT true,
    "mandatory" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "custom_field_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_field_option" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "custom_field_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "custom_field_option_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_field_value" (
    "environment_id" TEXT NOT NULL,
    "custom_field_id" TEXT NOT NULL,
    "entity_id" TEXT NOT NULL,
    "value" TEXT,

    CONSTRAINT "custom_field_value_pkey" PRIMARY KEY ("custom_field_id","entity_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "person_address_person_id_key" ON "person_address"("person_id");

-- CreateIndex
CREATE INDEX "person_address_environment_id_locality_idx" ON "person_address"("environment_id", "locality");

-- CreateIndex
CREATE INDEX "contact_person_environment_id_organization_id_idx" ON "contact_person"("environment_id", "organization_id");

-- CreateIndex
CREATE INDEX "contact_person_environment_id_person_id_idx" ON "contact_person"("environment_id", "person_id");

-- CreateIndex
CREATE INDEX "contact_person_environment_id_updated_at_id_idx" ON "contact_person"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "contact_person_environment_id_created_at_id_idx" ON "contact_person"("environment_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "contact_person_organization_id_person_id_key" ON "contact_person"("organization_id", "person_id");

-- CreateIndex
CREATE INDEX "country_environment_id_name_id_idx" ON "country"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "country_environment_id_country_code_idx" ON "country"("environment_id", "country_code");

-- CreateIndex
CREATE INDEX "gender_environment_id_name_id_idx" ON "gender"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "interest_environment_id_name_id_idx" ON "interest"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "organization_interest_environment_id_interest_id_idx" ON "organization_interest"("environment_id", "interest_id");

-- CreateIndex
CREATE INDEX "person_interest_environment_id_interest_id_idx" ON "person_interest"("environment_id", "interest_id");

-- CreateIndex
CREATE INDEX "mailing_list_environment_id_name_id_idx" ON "mailing_list"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "person_mailing_list_environment_id_mailing_list_id_idx" ON "person_mailing_list"("environment_id", "mailing_list_id");

-- CreateIndex

-- CreateIndex
CREATE INDEX "my_organization_profile_environment_id_created_at_id_idx" ON "my_organization_profile"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "my_organization_profile_access_environment_id_user_id_idx" ON "my_organization_profile_access"("environment_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "custom_field_model_environment_id_key_key" ON "custom_field_model"("environment_id", "key");

-- CreateIndex
CREATE INDEX "custom_field_type_environment_id_position_id_idx" ON "custom_field_type"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "custom_field_group_environment_id_model_id_position_idx" ON "custom_field_group"("environment_id", "model_id", "position");

-- CreateIndex
CREATE INDEX "custom_field_environment_id_model_id_position_idx" ON "custom_field"("environment_id", "model_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "custom_field_environment_id_model_key_name_key" ON "custom_field"("environment_id", "model_key", "name");

-- CreateIndex
CREATE INDEX "custom_field_option_environment_id_custom_field_id_position_idx" ON "custom_field_option"("environment_id", "custom_field_id", "position");

-- CreateIndex
CREATE INDEX "custom_field_value_environment_id_entity_id_idx" ON "custom_field_value"("environment_id", "entity_id");

-- CreateIndex
CREATE INDEX "custom_field_value_custom_field_id_value_idx" ON "custom_field_value"("custom_field_id", "value");

-- CreateIndex
CREATE INDEX "person_environment_id_created_at_id_idx" ON "person"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "person_environment_id_full_name_id_idx" ON "person"("environment_id", "full_name", "id");

-- AddForeignKey
ALTER TABLE "person" ADD CONSTRAINT "person_gender_id_fkey" FOREIGN KEY ("gender_id") REFERENCES "gender"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "person" ADD CONSTRAINT "person_relation_type_id_fkey" FOREIGN KEY ("relation_type_id") REFERENCES "relation_type"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "person_address" ADD CONSTRAINT "person_address_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_person" ADD CONSTRAINT "contact_person_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_person" ADD CONSTRAINT "contact_person_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "organization_interest" ADD CONSTRAINT "organization_interest_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "organization_interest" ADD CONSTRAINT "organization_interest_interest_id_fkey" FOREIGN KEY ("interest_id") REFERENCES "interest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "person_interest" ADD CONSTRAINT "person_interest_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "person_interest" ADD CONSTRAINT "person_interest_interest_id_fkey" FOREIGN KEY ("interest_id") REFERENCES "interest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "person_mailing_list" ADD CONSTRAINT "person_mailing_list_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "person_mailing_list" ADD CONSTRAINT "person_mailing_list_mailing_list_id_fkey" FOREIGN KEY ("mailing_list_id") REFERENCES "mailing_list"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "my_organization_profile" ADD CONSTRAINT "my_organization_profile_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "my_organization_profile_access" ADD CONSTRAINT "my_organization_profile_access_profile_id_fkey" FOREIGN KEY ("profile_id") REFERENCES "my_organization_profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_field_group" ADD CONSTRAINT "custom_field_group_model_id_fkey" FOREIGN KEY ("model_id") REFERENCES "custom_field_model"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_field" ADD CONSTRAINT "custom_field_model_id_fkey" FOREIGN KEY ("model_id") REFERENCES "custom_field_model"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_field" ADD CONSTRAINT "custom_field_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "custom_field_group"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_field" ADD CONSTRAINT "custom_field_type_id_fkey" FOREIGN KEY ("type_id") REFERENCES "custom_field_type"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_field_option" ADD CONSTRAINT "custom_field_option_custom_field_id_fkey" FOREIGN KEY ("custom_field_id") REFERENCES "custom_field"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_field_value" ADD CONSTRAINT "custom_field_value_custom_field_id_fkey" FOREIGN KEY ("custom_field_id") REFERENCES "custom_field"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Wildcard filters compile to lower(column) LIKE lower(pattern) (case-insensitive);
-- these expression indexes let a prefix search (q[name]=Acme*) use an index range.
-- Prisma's schema cannot state expression indexes, so they live only here.
CREATE INDEX "organization_environment_id_lower_name_idx" ON "organization" ("environment_id", lower("name") text_pattern_ops);
CREATE INDEX "person_environment_id_lower_full_name_idx" ON "person" ("environment_id", lower("full_name") text_pattern_ops);
CREATE INDEX "person_environment_id_lower_family_name_idx" ON "person" ("environment_id", lower("family_name") text_pattern_ops);

-- crm/debtor lists organizations and persons together: one view, so the list compiler
-- filters, sorts and pages it like any table.
CREATE VIEW "debtor" AS
  SELECT o.id, o.environment_id, o.id AS organization_id, NULL::text AS person_id, o.name, o.relation_number,
         o.relation_type_id, o.is_active, o.created_at, o.updated_at
    FROM "organization" o
  UNION ALL
  SELECT p.id, p.environment_id, NULL::text AS organization_id, p.id AS person_id, p.full_name AS name, p.relation_number,
         p.relation_type_id, p.is_active, p.created_at, p.updated_at
    FROM "person" p;

-- persons created before full_name existed
UPDATE "person" SET "full_name" = concat_ws(' ', "first_name", "family_name") WHERE "full_name" = '';
