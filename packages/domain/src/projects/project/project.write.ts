import { deleteCustomFieldValues, writeCustomFields } from '../../customfields/index.js';
import type { EntityCreate, EntityUpdate, SqlWriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { optionalDateText } from '../sql-writes.js';
import type { CreateProjectInput, UpdateProjectInput } from './project.schema.js';

/** The columns a write names (left out: undefined, the column keeps its value or default). */
function columns(input: UpdateProjectInput): Record<string, unknown> {
  return {
    name: input.name,
    project_number: input.projectNumber,
    organization_id: input.organizationId,
    person_id: input.personId,
    contact_id: input.contactId,
    my_organization_profile_id: input.myOrganizationProfileId,
    project_manager_id: input.projectManagerId,
    project_status_id: input.projectStatusId,
    billable: input.billable,
    can_register_mileage: input.canRegisterMileage,
    note: input.note,
    start_date: optionalDateText(input.startDate),
    end_date: optionalDateText(input.endDate),
    invoice_reference: input.invoiceReference,
    phase: input.phase,
  };
}

/** A new project without a status starts in the environment's first open status. */
export const createProject: EntityCreate<CreateProjectInput> = {
  // the row, its status, custom fields and event through the transaction's reader, queued: one round trip
  async run({ sql, now }, input) {
    const id = newEntityId('project');
    await sql.insert('project', {
      ...columns(input),
      project_status_id: input.projectStatusId || null,
      id,
      updated_at: now,
    });
    if (!input.projectStatusId) {
      // the first open status, chosen by PostgreSQL in the same round trip (none: no status)
      await sql.queue(
        `UPDATE project SET project_status_id =
           (SELECT s.id FROM project_status s WHERE s.environment_id = $1 AND NOT s.is_closed ORDER BY s.position, s.id LIMIT 1)
          WHERE environment_id = $1 AND id = $2`,
        [id],
      );
    }
    await writeCustomFields(sql, 'project', id, input.customFields, 'create');
    return id;
  },
};

export const updateProject: EntityUpdate<UpdateProjectInput> = {
  async run({ sql, now }, id, input) {
    if (input.billable !== undefined) {
      // the project is locked by the update: its billable and its services are as this write sees them
      const [current] = await sql.read<{ billable: boolean; services: number }>(
        `SELECT p.billable,
                (SELECT count(*) FROM project_service s WHERE s.environment_id = $1 AND s.project_id = p.id)::int AS services
           FROM project p WHERE p.environment_id = $1 AND p.id = $2`,
        [id],
      );
      // contract 2025-04: billable of a project with services cannot change; its services must be removed first
      if (current && input.billable !== current.billable && current.services > 0) {
        throw new BusinessRuleError(
          `billable of project ${id} cannot change while it has ${current.services} service(s); remove the services first`,
        );
      }
    }
    await sql.update('project', id, { ...columns(input), updated_at: now });
    await writeCustomFields(sql, 'project', id, input.customFields, 'update');
  },
};

/** Custom-field values are keyed by entity id, not by a foreign key: they go with the project. */
export async function deleteProject({ sql }: SqlWriteContext, id: string): Promise<void> {
  await deleteCustomFieldValues(sql, id);
  await sql.deleteById('project', id);
}
