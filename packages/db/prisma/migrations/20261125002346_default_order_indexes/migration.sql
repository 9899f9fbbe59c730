-- Every entity's own order (its list when none is asked for) is read off an index that
-- leads with the environment: paging stays in the database, and one prepared plan serves
-- the unfiltered page of every environment, whatever its size (see ReadOptions in
-- packages/db/src/client.ts). tests/read-path.test.ts checks every declared entity.

-- CreateIndex
CREATE INDEX "absence_environment_id_start_date_id_idx" ON "absence"("environment_id", "start_date", "id");

-- CreateIndex
CREATE INDEX "absence_type_environment_id_label_id_idx" ON "absence_type"("environment_id", "label", "id");

-- CreateIndex
CREATE INDEX "approval_status_environment_id_position_id_idx" ON "approval_status"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "assignment_environment_id_created_at_id_idx" ON "assignment"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "civil_status_environment_id_label_id_idx" ON "civil_status"("environment_id", "label", "id");

-- CreateIndex
CREATE INDEX "contract_environment_id_start_date_id_idx" ON "contract"("environment_id", "start_date", "id");

-- CreateIndex
CREATE INDEX "contract_type_environment_id_name_id_idx" ON "contract_type"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "custom_field_environment_id_position_created_at_id_idx" ON "custom_field"("environment_id", "position", "created_at", "id");

-- CreateIndex
CREATE INDEX "custom_field_group_environment_id_position_id_idx" ON "custom_field_group"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "custom_field_model_environment_id_label_id_idx" ON "custom_field_model"("environment_id", "label", "id");

-- CreateIndex
CREATE INDEX "custom_field_option_environment_id_position_id_idx" ON "custom_field_option"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "default_action_environment_id_position_id_idx" ON "default_action"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "default_task_environment_id_position_id_idx" ON "default_task"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "default_workflow_environment_id_name_id_idx" ON "default_workflow"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "default_workflow_group_environment_id_position_id_idx" ON "default_workflow_group"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "employee_status_environment_id_position_id_idx" ON "employee_status"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "employee_type_environment_id_label_id_idx" ON "employee_type"("environment_id", "label", "id");

-- CreateIndex
CREATE INDEX "employment_type_environment_id_name_id_idx" ON "employment_type"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "expense_environment_id_start_date_id_idx" ON "expense"("environment_id", "start_date", "id");

-- CreateIndex
CREATE INDEX "hour_approval_environment_id_created_at_id_idx" ON "hour_approval"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "hour_registration_environment_id_start_date_id_idx" ON "hour_registration"("environment_id", "start_date", "id");

-- CreateIndex
CREATE INDEX "industry_environment_id_name_id_idx" ON "industry"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "invoice_line_environment_id_position_id_idx" ON "invoice_line"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "leave_environment_id_created_at_id_idx" ON "leave"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "leave_status_environment_id_label_id_idx" ON "leave_status"("environment_id", "label", "id");

-- CreateIndex
CREATE INDEX "mileage_environment_id_start_date_id_idx" ON "mileage"("environment_id", "start_date", "id");

-- CreateIndex
CREATE INDEX "organization_size_environment_id_name_id_idx" ON "organization_size"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "project_employee_environment_id_created_at_id_idx" ON "project_employee"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "project_filter_environment_id_created_at_id_idx" ON "project_filter"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "project_service_environment_id_created_at_id_idx" ON "project_service"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "project_service_environment_id_name_id_idx" ON "project_service"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "project_service_cost_type_environment_id_position_id_idx" ON "project_service_cost_type"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "project_service_hour_type_environment_id_position_id_idx" ON "project_service_hour_type"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "project_service_installment_environment_id_position_id_idx" ON "project_service_installment"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "project_status_environment_id_position_id_idx" ON "project_status"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "purchase_environment_id_created_at_id_idx" ON "purchase"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "quote_line_environment_id_created_at_id_idx" ON "quote_line"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "quote_status_environment_id_position_id_idx" ON "quote_status"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "quote_template_environment_id_name_id_idx" ON "quote_template"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "relation_type_environment_id_label_id_idx" ON "relation_type"("environment_id", "label", "id");

-- CreateIndex
CREATE INDEX "revenue_group_environment_id_label_id_idx" ON "revenue_group"("environment_id", "label", "id");

-- CreateIndex
CREATE INDEX "sale_service_environment_id_position_created_at_id_idx" ON "sale_service"("environment_id", "position", "created_at", "id");

-- CreateIndex
CREATE INDEX "sale_service_cost_type_environment_id_created_at_id_idx" ON "sale_service_cost_type"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "sale_service_hour_type_environment_id_created_at_id_idx" ON "sale_service_hour_type"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "sales_filter_environment_id_name_id_idx" ON "sales_filter"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "sales_progress_environment_id_position_id_idx" ON "sales_progress"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "sales_reason_environment_id_name_id_idx" ON "sales_reason"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "sales_source_environment_id_name_id_idx" ON "sales_source"("environment_id", "name", "id");

-- CreateIndex
CREATE INDEX "sales_status_environment_id_position_id_idx" ON "sales_status"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "shared_item_environment_id_created_at_id_idx" ON "shared_item"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "timeline_attachment_environment_id_created_at_id_idx" ON "timeline_attachment"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "timer_environment_id_created_at_id_idx" ON "timer"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "timesheet_row_environment_id_position_id_idx" ON "timesheet_row"("environment_id", "position", "id");

-- CreateIndex
CREATE INDEX "timetable_environment_id_start_date_id_idx" ON "timetable"("environment_id", "start_date", "id");

-- CreateIndex
CREATE INDEX "user_account_environment_id_created_at_id_idx" ON "user_account"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "vat_class_environment_id_code_id_idx" ON "vat_class"("environment_id", "code", "id");

-- CreateIndex
CREATE INDEX "workflow_task_environment_id_position_id_idx" ON "workflow_task"("environment_id", "position", "id");
