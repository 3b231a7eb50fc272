import { z } from 'zod';

export const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const nameSchema = z.string().trim().min(1).max(100);
export const skillNameSchema = z.string().trim().min(1).max(100);

export const customAttributesSchema = z
  .record(z.string().min(1).max(100), z.string().max(1000))
  .refine((r) => Object.keys(r).length <= 50, 'at most 50 attributes')
  .describe('Key-value pairs that routing conditions and reports can use');

/** A field that can only be set at creation: accepted by the schema so the answer can be 3005. */
export const immutableField = (what: string) =>
  z.unknown().optional().describe(`${what} cannot be changed after creation; sending it answers 3005`);
