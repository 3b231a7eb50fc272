'use client';

import { type DefaultValues, type FieldValues, get, type Path, type Resolver, type UseFormReturn, useForm } from 'react-hook-form';
import { described } from '@/components/admin/form';
import { type Failure, fieldError } from '@/components/shared/errors';

export type ContractForm<TForm extends FieldValues, TBody> = UseFormReturn<TForm, unknown, TBody> & {
  /**
   * The message to show beside a field: the page's own check of the contract schema first, then
   * the server's refusal of the last request (`failure`), matched by the body's field path.
   */
  messages: (failure: Failure | null) => (path: string) => string | undefined;
  /**
   * Everything an input needs in one spread: its id, the aria wiring to its Field's hint and error,
   * and react-hook-form's registration.
   */
  bind: (
    name: Path<TForm>,
    id: string,
    opts: { failure: Failure | null; hint?: boolean; required?: boolean },
  ) => ReturnType<typeof described> & ReturnType<UseFormReturn<TForm, unknown, TBody>['register']>;
};

/**
 * One way to build a console form: react-hook-form over a `contractResolver` (the contract's zod
 * schema, errors in our own words). On a refused submit react-hook-form moves focus to the first
 * field with an error, whose message its aria-describedby reads out; a refusal from the server is
 * shown by `FormError`, which takes focus itself.
 */
export function useContractForm<TForm extends FieldValues, TBody>(
  resolver: Resolver<TForm, unknown, TBody>,
  defaultValues: DefaultValues<TForm>,
): ContractForm<TForm, TBody> {
  const form = useForm<TForm, unknown, TBody>({ resolver, defaultValues, shouldFocusError: true });
  const errors = form.formState.errors;
  const messages = (failure: Failure | null) => (path: string) =>
    (get(errors, path) as { message?: string } | undefined)?.message ?? fieldError(failure, path);
  const bind: ContractForm<TForm, TBody>['bind'] = (name, id, { failure, hint, required }) => ({
    ...described(id, { error: messages(failure)(name), hint, required }),
    ...form.register(name),
  });
  return { ...form, messages, bind };
}
