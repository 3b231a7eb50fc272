import { z } from 'zod';
import { intIdParam, KEY_RULE, nameText, text, withOpenApi } from '../../common';

export const idParams = z.object({ id: intIdParam() });

export const nameSchema = nameText().trim().min(1).max(100);
export const skillNameSchema = nameText().trim().min(1).max(100);

export const customAttributesSchema = withOpenApi(
  z
    .record(text().min(1).max(100), text().max(1000))
    .refine((r) => Object.keys(r).length <= 50, 'at most 50 attributes')
    .describe(`Key-value pairs that routing conditions and reports can use: at most 50, keys of 1 to 100 characters; ${KEY_RULE}`),
  { maxProperties: 50 },
);

/**
 * A field that can only be set at creation. The service accepts it into the handler so that the
 * answer is 3005 rather than an unknown-field 2000; the document types it as `not: {}` (no value is
 * valid), so generated clients see it as not settable.
 */
export const immutableField = (what: string) =>
  withOpenApi(z.unknown().describe(`${what} cannot be changed after creation; sending it answers 3005`), {
    not: {},
    readOnly: true,
  }).optional();
