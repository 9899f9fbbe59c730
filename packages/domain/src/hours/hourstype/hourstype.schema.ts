import { z } from 'zod';

/** Tariffs come as strings or numbers (PostHoursType.tariff is a string in the reference). */
const tariffInput = z
  .union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/, 'This value is not a number.')])
  .transform((v) => Number(v))
  .pipe(z.number().min(0).max(1e10))
  .nullable()
  .optional();

const fields = {
  /** the only kind of hour type there is; accepted and not stored */
  type: z.enum(['Work Type']).optional(),
  vatClassId: z.string().min(1).nullable().optional(),
  tariff: tariffInput,
  blocked: z.boolean().optional(),
  color: z.string().max(32).nullable().optional(),
};
export const createHourTypeInput = z.object({ label: z.string().trim().min(1).max(255), ...fields });
export const updateHourTypeInput = z.object({ label: z.string().trim().min(1).max(255).optional(), ...fields });
export type CreateHourTypeInput = z.infer<typeof createHourTypeInput>;
export type UpdateHourTypeInput = z.infer<typeof updateHourTypeInput>;
