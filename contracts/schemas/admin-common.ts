import { z } from 'zod';
import { intIdParam, text } from './common';

export const idParams = z.object({ id: intIdParam() });

export const nameSchema = text().trim().min(1).max(100);
export const skillNameSchema = text().trim().min(1).max(100);

export const customAttributesSchema = z
  .record(text().min(1).max(100), text().max(1000))
  .refine((r) => Object.keys(r).length <= 50, 'at most 50 attributes')
  .describe('Key-value pairs that routing conditions and reports can use');

/** A field that can only be set at creation: accepted by the schema so the answer can be 3005. */
export const immutableField = (what: string) =>
  z.unknown().optional().describe(`${what} cannot be changed after creation; sending it answers 3005`);
