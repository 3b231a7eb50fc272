import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import { type ZodErrorMap, ZodIssueCode, type ZodType, type ZodTypeDef } from 'zod';

/**
 * Form errors in the console's own words, from the contract's zod schemas: each names the field
 * and says what to do. `labels` maps a body path (`name`, `webhook_url`, `conditions.0.value`) or
 * its first segment to the field's name as a phrase (`the name`, `the webhook URL`).
 */
export type Labels = Record<string, string>;

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The field's phrase; a label written `choose:the team` marks a field picked from a list. */
function labelOf(labels: Labels, path: (string | number)[]): string {
  for (let n = path.length; n > 0; n--) {
    const key = path
      .slice(0, n)
      .map((p) => (typeof p === 'number' ? '*' : p))
      .join('.');
    if (labels[key]) return labels[key].replace(/^choose:/, '');
  }
  return 'this field';
}

export function wordsFor(labels: Labels): ZodErrorMap {
  const chosen = (path: (string | number)[]) => Object.entries(labels).some(([k, v]) => v.startsWith('choose:') && k === path.join('.'));
  return (issue, ctx) => {
    const field = labelOf(labels, issue.path);
    const Field = capital(field);
    const enter = chosen(issue.path) ? 'Choose' : 'Enter';
    switch (issue.code) {
      case ZodIssueCode.invalid_type:
        if (issue.received === 'undefined' || issue.received === 'null') return { message: `${enter} ${field}.` };
        if (issue.expected === 'number') return { message: `${Field} must be a number.` };
        return { message: `${Field} has the wrong kind of value.` };
      case ZodIssueCode.too_small:
        if (issue.type === 'string')
          return { message: issue.minimum === 1 ? `${enter} ${field}.` : `${Field} needs at least ${issue.minimum} characters.` };
        if (issue.type === 'array') return { message: `Choose at least ${issue.minimum === 1 ? 'one' : issue.minimum} for ${field}.` };
        return { message: `${Field} must be ${issue.minimum} or more.` };
      case ZodIssueCode.too_big:
        if (issue.type === 'string') return { message: `${Field} can be at most ${issue.maximum} characters: shorten it.` };
        if (issue.type === 'array') return { message: `${Field} can have at most ${issue.maximum}: remove some.` };
        return { message: `${Field} must be ${issue.maximum} or less.` };
      case ZodIssueCode.invalid_string:
        if (issue.validation === 'email') return { message: `${Field} must be an email address, like name@example.com.` };
        if (issue.validation === 'url') return { message: `${Field} must be a full web address starting with https://.` };
        return { message: `${Field} is not in the expected form.` };
      case ZodIssueCode.not_multiple_of:
      case ZodIssueCode.invalid_date:
        return { message: `${Field} is not valid.` };
      case ZodIssueCode.invalid_enum_value:
        return { message: `Choose one of the offered values for ${field}.` };
      default:
        return { message: `${Field}: ${ctx.defaultError.charAt(0).toLowerCase()}${ctx.defaultError.slice(1)}.` };
    }
  };
}

/** Messages written in the schemas themselves ("may not contain spaces") get the field's name in front. */
function nameFields(errors: FieldErrors, labels: Labels, path: string[] = []): void {
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== 'object') continue;
    const message = (value as { message?: unknown }).message;
    if (typeof message === 'string' && /^must contain a non-space character/.test(message)) {
      // A name of spaces only is a missing name.
      (value as { message: string }).message = `Enter ${labelOf(labels, [...path, key])}.`;
    } else if (typeof message === 'string' && /^[a-z]/.test(message)) {
      (value as { message: string }).message = `${capital(labelOf(labels, [...path, key]))}: ${message}.`;
    } else if (!('type' in value)) nameFields(value as FieldErrors, labels, [...path, key]);
  }
}

/**
 * A react-hook-form resolver that turns the form's values into the request body (`toBody`) and
 * checks that body with the contract's own schema, so the page refuses exactly what the API would,
 * in words a person understands. The submit handler receives the checked body.
 */
export function contractResolver<TForm extends FieldValues, TBody>(
  schema: ZodType<TBody, ZodTypeDef, unknown>,
  toBody: (values: TForm) => unknown,
  labels: Labels,
): Resolver<TForm, unknown, TBody> {
  const check = zodResolver(schema as never, { errorMap: wordsFor(labels) } as never) as unknown as Resolver<FieldValues, unknown, TBody>;
  return async (values, context, options) => {
    const result = await check(toBody(values) as FieldValues, context, options as never);
    nameFields(result.errors as FieldErrors, labels);
    return result as never;
  };
}
