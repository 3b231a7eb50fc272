'use client';

import { useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { described, Field, FormError, SubmitButton } from '@/components/admin/form';
import { tsr } from '@/components/admin/shared/client';
import { contractResolver } from '@/components/admin/shared/form-words';
import { focusNextPage } from '@/components/admin/shell';
import { useContractForm } from '@/components/admin/use-contract-form';
import { failureOf } from '@/components/shared/errors';
import { loginBodySchema } from '@/contracts/admin/schemas/session';

/** Only paths inside the console are followed after signing in. */
function safeNext(next: string | null): string {
  return next?.startsWith('/admin') && !next.startsWith('//') ? next : '/admin/chats';
}

type Values = { email: string; password: string };
const resolver = contractResolver(loginBodySchema, (v: Values) => v, { email: 'the email', password: 'the password' });

export function LoginForm() {
  const router = useRouter();
  const params = useSearchParams();
  const { register, handleSubmit, messages } = useContractForm<Values, Values>(resolver, { email: '', password: '' });
  // Until the page is interactive a click would only reload it and drop what was typed.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const login = tsr.session.login.useMutation({
    onSuccess: () => {
      focusNextPage();
      router.replace(safeNext(params.get('next')));
    },
  });
  const failure = failureOf(login.error);
  const err = messages(failure);

  return (
    <form className="card login-card" onSubmit={handleSubmit((body) => login.mutate({ body }))} noValidate>
      <h2>Sign in</h2>
      <FormError failure={failure} title="Could not sign in" placed={['email', 'password']} />
      <Field id="email" label="Email" required error={err('email')}>
        <input
          {...described('email', { error: err('email'), required: true })}
          type="email"
          autoComplete="username"
          required
          {...register('email')}
        />
      </Field>
      <Field id="password" label="Password" required error={err('password')}>
        <input
          {...described('password', { error: err('password'), required: true })}
          type="password"
          autoComplete="current-password"
          required
          {...register('password')}
        />
      </Field>
      <SubmitButton pending={login.isPending} pendingText="Signing in…" disabled={!ready}>
        Sign in
      </SubmitButton>
    </form>
  );
}
