import type { Models } from '@bo/db';
import type { Db } from '../../shared/resources/definition.js';

/** A project service as use cases and views see it: its project, its lines and what has been invoiced. */
export const projectServiceInclude = {
  project: { include: { projectStatus: true } },
  hourTypes: { include: { hourType: true }, orderBy: { position: 'asc' } },
  costTypes: { include: { costType: true }, orderBy: { position: 'asc' } },
  installments: { orderBy: { position: 'asc' } },
  invoiceLines: { where: { invoice: { status: { not: 'draft' } } }, select: { amount: true } },
} as const;

export type ProjectServiceRow = Models.ProjectServiceModel & {
  project: Models.ProjectModel & { projectStatus: Models.ProjectStatusModel | null };
  hourTypes: (Models.ProjectServiceHourTypeModel & { hourType: Models.HourTypeModel })[];
  costTypes: (Models.ProjectServiceCostTypeModel & { costType: Models.CostTypeModel })[];
  installments: Models.ProjectServiceInstallmentModel[];
  invoiceLines: { amount: Models.InvoiceLineModel['amount'] }[];
};

export function loadProjectServices(db: Db, ids: string[]): Promise<ProjectServiceRow[]> {
  return db.projectService.findMany({ where: { id: { in: ids } }, include: projectServiceInclude });
}

export async function loadProjectService(db: Db, id: string): Promise<ProjectServiceRow | null> {
  const [row] = await loadProjectServices(db, [id]);
  return row ?? null;
}

export type ServiceKind = 'invoiceable' | 'acquisition' | 'advance';
