import { z } from 'zod';

import { projectSimple } from '../../shared/relation-shapes.js';

/** How a project service, a purchase, an assignment, an hour… embeds its project: the one project shape (GetProjectSimple). */
export const projectReference = projectSimple;

/** How a project embeds its status. */
export const projectStatusReference = z.object({
  id: z.string(),
  label: z.string(),
  color: z.string().nullable(),
  isClosed: z.boolean(),
});
