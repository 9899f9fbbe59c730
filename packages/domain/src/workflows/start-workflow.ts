import { SCOPED_ENVIRONMENT } from '@bo/db';
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

/** Starts a workflow from a default on one entity: its tasks are the default's, due from the start date. */
export const startWorkflow: EntityCreate<StartWorkflowInput> = {
  references,
  async run({ tx, now }, input) {
    const template = await tx.defaultWorkflow.findFirst({
      where: { id: input.defaultWorkflowId },
      include: { tasks: { orderBy: [{ position: 'asc' }, { id: 'asc' }] } },
    });
    if (!template)
      throw new ValidationError([{ path: 'defaultWorkflowId', message: 'no such default workflow', code: 'not_found' }]);
    const [key, kind] = LINKS.find(([k]) => input.linkedTo[k] !== undefined) ?? LINKS[0];
    if (template.appliesTo !== kind) {
      throw new ValidationError([
        {
          path: `linkedTo.${key}`,
          message: `the default workflow "${template.name}" runs on a ${template.appliesTo}, not on a ${kind}`,
          code: 'invalid_link',
        },
      ]);
    }
    const start = input.startDate ?? now.toISOString().slice(0, 10);
    const id = newEntityId('workflow');
    await tx.workflow.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        defaultWorkflowId: template.id,
        name: input.name ?? template.name,
        sequential: template.sequential,
        organizationId: input.linkedTo.organizationId ?? null,
        personId: input.linkedTo.personId ?? null,
        projectId: input.linkedTo.projectId ?? null,
        saleId: input.linkedTo.saleId ?? null,
        startedAt: now,
        tasks: {
          create: template.tasks.map((t) => ({
            id: newEntityId('workflowtask'),
            environmentId: SCOPED_ENVIRONMENT,
            name: t.name,
            description: t.description,
            position: t.position,
            assigneeEmployeeId: input.assigneeId ?? null,
            dueDate: t.dueInDays === null ? null : addDays(start, t.dueInDays),
          })),
        },
      },
    });
    return id;
  },
};
