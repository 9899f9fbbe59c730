import { z } from 'zod';

/** How a project service, a purchase or an assignment embeds its project. */
export const projectReference = z.object({ id: z.string(), name: z.string(), projectNumber: z.string().nullable() });

/** How a project embeds its status. */
export const projectStatusReference = z.object({
  id: z.string(),
  label: z.string(),
  color: z.string().nullable(),
  isClosed: z.boolean(),
});
