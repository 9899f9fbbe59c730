-- CreateTable
CREATE TABLE "document_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "can_have_attachment" BOOLEAN NOT NULL DEFAULT true,
    "is_for_crm" BOOLEAN NOT NULL DEFAULT true,
    "is_for_contact" BOOLEAN NOT NULL DEFAULT true,
    "is_for_sale" BOOLEAN NOT NULL DEFAULT true,
    "is_for_debtor" BOOLEAN NOT NULL DEFAULT false,
    "is_for_project" BOOLEAN NOT NULL DEFAULT true,
    "is_for_subscription" BOOLEAN NOT NULL DEFAULT false,
    "is_for_employee" BOOLEAN NOT NULL DEFAULT false,
    "is_for_invoice" BOOLEAN NOT NULL DEFAULT true,
    "is_for_myorganizationprofile" BOOLEAN NOT NULL DEFAULT false,
    "is_blocked" BOOLEAN NOT NULL DEFAULT false,
    "is_visible_on_all" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "document_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "document" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "document_type_id" TEXT,
    "upload_id" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "file_size" BIGINT NOT NULL,
    "content_type" TEXT NOT NULL,
    "linked_person_id" TEXT,
    "linked_organization_id" TEXT,
    "linked_sale_id" TEXT,
    "linked_project_id" TEXT,
    "linked_invoice_id" TEXT,
    "linked_employee_id" TEXT,
    "created_by_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "document_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "external_document" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "document_type_id" TEXT,
    "linked_person_id" TEXT,
    "linked_organization_id" TEXT,
    "linked_sale_id" TEXT,
    "linked_project_id" TEXT,
    "linked_invoice_id" TEXT,
    "linked_employee_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "external_document_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "timeline_message_type" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "blocked" BOOLEAN NOT NULL DEFAULT false,
    "log_action" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "timeline_message_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "timeline_message" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "message_type_id" TEXT,
    "title" TEXT,
    "content" TEXT,
    "content_fields" JSONB NOT NULL DEFAULT '[]',
    "display_date" TIMESTAMPTZ(3),
    "source_type" TEXT,
    "linked_person_id" TEXT,
    "linked_organization_id" TEXT,
    "linked_sale_id" TEXT,
    "linked_project_id" TEXT,
    "linked_invoice_id" TEXT,
    "linked_employee_id" TEXT,
    "created_by_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "timeline_message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "timeline_attachment" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "document_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "timeline_attachment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chunked_upload" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "file_size" BIGINT NOT NULL,
    "received" BIGINT NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL DEFAULT 'in_progress',
    "storage_key" TEXT NOT NULL,
    "upload_queue_id" TEXT,
    "content_type" TEXT,
    "used_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "chunked_upload_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_subscription" (
    "id" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "secret" TEXT NOT NULL,
    "description" TEXT,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_subscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery" (
    "id" UUID NOT NULL,
    "environment_id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "event_seq" BIGINT NOT NULL,
    "event_type" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retry_from" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMPTZ(3),
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempt" (
    "id" UUID NOT NULL,
    "environment_id" TEXT NOT NULL,
    "delivery_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "latency_ms" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_attempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_dispatch_cursor" (
    "id" INTEGER NOT NULL,
    "last_seq" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_dispatch_cursor_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "document_type_environment_id_updated_at_id_idx" ON "document_type"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "document_type_environment_id_label_id_idx" ON "document_type"("environment_id", "label", "id");

-- CreateIndex
CREATE UNIQUE INDEX "document_upload_id_key" ON "document"("upload_id");

-- CreateIndex
CREATE INDEX "document_environment_id_updated_at_id_idx" ON "document"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "document_environment_id_created_at_id_idx" ON "document"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "document_environment_id_linked_invoice_id_idx" ON "document"("environment_id", "linked_invoice_id");

-- CreateIndex
CREATE INDEX "document_environment_id_linked_person_id_idx" ON "document"("environment_id", "linked_person_id");

-- CreateIndex
CREATE INDEX "document_environment_id_linked_organization_id_idx" ON "document"("environment_id", "linked_organization_id");

-- CreateIndex
CREATE INDEX "document_environment_id_linked_project_id_idx" ON "document"("environment_id", "linked_project_id");

-- CreateIndex
CREATE INDEX "document_environment_id_linked_sale_id_idx" ON "document"("environment_id", "linked_sale_id");

-- CreateIndex
CREATE INDEX "external_document_environment_id_updated_at_id_idx" ON "external_document"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "external_document_environment_id_created_at_id_idx" ON "external_document"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "timeline_message_type_environment_id_updated_at_id_idx" ON "timeline_message_type"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "timeline_message_type_environment_id_label_id_idx" ON "timeline_message_type"("environment_id", "label", "id");

-- CreateIndex
CREATE INDEX "timeline_message_environment_id_updated_at_id_idx" ON "timeline_message"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "timeline_message_environment_id_created_at_id_idx" ON "timeline_message"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "timeline_attachment_environment_id_updated_at_id_idx" ON "timeline_attachment"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "timeline_attachment_document_id_idx" ON "timeline_attachment"("document_id");

-- CreateIndex
CREATE UNIQUE INDEX "timeline_attachment_message_id_document_id_key" ON "timeline_attachment"("message_id", "document_id");

-- CreateIndex
CREATE UNIQUE INDEX "chunked_upload_upload_queue_id_key" ON "chunked_upload"("upload_queue_id");

-- CreateIndex
CREATE INDEX "chunked_upload_environment_id_updated_at_id_idx" ON "chunked_upload"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "chunked_upload_expires_at_idx" ON "chunked_upload"("expires_at");

-- CreateIndex
CREATE INDEX "webhook_subscription_environment_id_updated_at_id_idx" ON "webhook_subscription"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "webhook_delivery_status_subscription_id_event_seq_idx" ON "webhook_delivery"("status", "subscription_id", "event_seq");

-- CreateIndex
CREATE INDEX "webhook_delivery_environment_id_updated_at_id_idx" ON "webhook_delivery"("environment_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "webhook_delivery_environment_id_subscription_id_created_at_idx" ON "webhook_delivery"("environment_id", "subscription_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_delivery_subscription_id_event_id_key" ON "webhook_delivery"("subscription_id", "event_id");

-- CreateIndex
CREATE INDEX "webhook_attempt_delivery_id_attempt_idx" ON "webhook_attempt"("delivery_id", "attempt");

-- CreateIndex
CREATE INDEX "webhook_attempt_environment_id_updated_at_id_idx" ON "webhook_attempt"("environment_id", "updated_at", "id");

-- AddForeignKey
ALTER TABLE "document" ADD CONSTRAINT "document_document_type_id_fkey" FOREIGN KEY ("document_type_id") REFERENCES "document_type"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "external_document" ADD CONSTRAINT "external_document_document_type_id_fkey" FOREIGN KEY ("document_type_id") REFERENCES "document_type"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "timeline_message" ADD CONSTRAINT "timeline_message_message_type_id_fkey" FOREIGN KEY ("message_type_id") REFERENCES "timeline_message_type"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "timeline_attachment" ADD CONSTRAINT "timeline_attachment_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "timeline_message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "webhook_subscription"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempt" ADD CONSTRAINT "webhook_attempt_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_delivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;
