import { organization } from '../crm/organization/organization.entity.js';
import { person } from '../crm/person/person.entity.js';
import { employee } from '../hrm/employee/employee.entity.js';
import type { EntityCreate, ReferenceCheck } from '../shared/entity/index.js';
import { ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import { defaultWorkflow, projectTarget, saleTarget } from './workflow.entities.js';
import type { StartWorkflowInput } from './workflow.schema.js';

const LINKS = [
  ['organizationId', 'organization'],
  ['personId', 'person'],
  ['projectId', 'project'],
  ['saleId', 'sale'],
] as const;

function addDays(day: string, days: number): Date {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d;
}

/** The ids a start names: the default, the entity it runs on, the assignee. */
function references(input: StartWorkflowInput): ReferenceCheck[] {
  const l = input.linkedTo;
  return [
    { path: 'defaultWorkflowId', target: defaultWorkflow, id: input.defaultWorkflowId },
    { path: 'linkedTo.organizationId', target: organization, id: l.organizationId },
    { path: 'linkedTo.personId', target: person, id: l.personId },
    { path: 'linkedTo.projectId', target: projectTarget, id: l.projectId },
    { path: 'linkedTo.saleId', target: saleTarget, id: l.saleId },
    { path: 'assigneeId', target: employee, id: input.assigneeId },
  ];
}

interface Template {
  id: string;
  name: string;
  applies_to: string;
  sequential: boolean;
  tasks: { name: string; description: string | null; position: number; due_in_days: number | null }[];
}

/** Starts a workflow from a default on one entity: its tasks are the default's, due from the start date. */
export const startWorkflow: EntityCreate<StartWorkflowInput> = {
  references,
  // the default and its tasks are read once; the workflow, its tasks and its event go with the COMMIT
  async run({ sql, now }, input) {
    const [template] = await sql.read<Template>(
      `SELECT d.id, d.name, d.applies_to, d.sequential,
              COALESCE((SELECT json_agg(json_build_object('name', t.name, 'description', t.description,
                                                          'position', t.position, 'due_in_days', t.due_in_days)
                                        ORDER BY t.position, t.id)
                          FROM default_task t WHERE t.environment_id = $1 AND t.default_workflow_id = d.id), '[]'::json) AS tasks
         FROM default_workflow d WHERE d.environment_id = $1 AND d.id = $2`,
      [input.defaultWorkflowId],
    );
    if (!template)
      throw new ValidationError([{ path: 'defaultWorkflowId', message: 'no such default workflow', code: 'not_found' }]);
    const [key, kind] = LINKS.find(([k]) => input.linkedTo[k] !== undefined) ?? LINKS[0];
    if (template.applies_to !== kind) {
      throw new ValidationError([
        {
          path: `linkedTo.${key}`,
          message: `the default workflow "${template.name}" runs on a ${template.applies_to}, not on a ${kind}`,
          code: 'invalid_link',
        },
      ]);
    }
    const start = input.startDate ?? now.toISOString().slice(0, 10);
    const id = newEntityId('workflow');
    await sql.insert('workflow', {
      id,
      default_workflow_id: template.id,
      name: input.name ?? template.name,
      sequential: template.sequential,
      organization_id: input.linkedTo.organizationId ?? null,
      person_id: input.linkedTo.personId ?? null,
      project_id: input.linkedTo.projectId ?? null,
      sale_id: input.linkedTo.saleId ?? null,
      started_at: now,
      updated_at: now,
    });
    if (template.tasks.length) {
      // every task in one statement, column by column
      const tasks = template.tasks;
      await sql.queue(
        `INSERT INTO workflow_task (environment_id, workflow_id, assignee_employee_id, updated_at,
                                    id, name, description, position, due_date)
         SELECT $1, $2, $3, $4, t.id, t.name, t.description, t.position, t.due_date
           FROM unnest($5::text[], $6::text[], $7::text[], $8::int[], $9::date[]) AS t(id, name, description, position, due_date)`,
        [
          id,
          input.assigneeId ?? null,
          now,
          tasks.map(() => newEntityId('workflowtask')),
          tasks.map((t) => t.name),
          tasks.map((t) => t.description),
          tasks.map((t) => t.position),
          // a date column takes the day as it is written (a Date would be sent in the process's time zone)
          tasks.map((t) => (t.due_in_days === null ? null : addDays(start, t.due_in_days).toISOString().slice(0, 10))),
        ],
        { stablePlan: true },
      );
    }
    return id;
  },
};
