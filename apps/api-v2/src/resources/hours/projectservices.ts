import {
  type BookableService,
  costsBookableService,
  hoursBookableService,
} from '@bo/domain/hours/projectservices/bookable-service.entity';
import { v2Names } from '../v2-names.js';
import { type AnyV2Resource, v2Resource } from '../v2-resource.js';

const names = v2Names();

/** A bookable service (reference: GetHoursProjectService, with its project); its period is the registration timeframe. */
function bookableV2(s: BookableService) {
  return {
    id: s.id,
    name: s.name,
    start_date: s.writeHoursStartDate ?? s.startDate,
    until_date: s.writeHoursEndDate ?? s.endDate,
    purchase_start_date: s.startDate,
    purchase_end_date: s.endDate,
    project: s.project ? { id: s.project.id, name: s.project.name, project_number: s.project.projectNumber ?? null } : null,
  };
}

/** The seed's hours/projectservices and costs/projectservices: read-only. */
export const bookableServiceV2Resources: AnyV2Resource[] = [
  v2Resource<BookableService>({
    path: 'hours/projectservices',
    entity: hoursBookableService,
    procedures: (c) => c.hours.projectservices,
    names,
    readOnly: true,
    conformance: false,
    read: bookableV2,
  }),
  v2Resource<BookableService>({
    path: 'costs/projectservices',
    entity: costsBookableService,
    procedures: (c) => c.hours.costprojectservices,
    names,
    readOnly: true,
    conformance: false,
    read: bookableV2,
  }),
];
