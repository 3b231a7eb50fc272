'use client';

import { useRouter, useSearchParams } from 'next/navigation';
import { type FormEvent, useEffect, useState } from 'react';
import { described, Field, FormError, SubmitButton } from '@/components/admin/form';
import { tsr } from '@/components/admin/lib/client';
import { failureOf, fieldError } from '@/components/admin/lib/errors';

/** Only paths inside the console are followed after signing in. */
function safeNext(next: string | null): string {
  return next?.startsWith('/admin') && !next.startsWith('//') ? next : '/admin/chats';
}

export function LoginForm() {
  const router = useRouter();
  const params = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Until the page is interactive a click would only reload it and drop what was typed.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const login = tsr.session.login.useMutation({ onSuccess: () => router.replace(safeNext(params.get('next'))) });
  const failure = failureOf(login.error);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate({ body: { email, password } });
  };

  return (
    <form className="card login-card" onSubmit={submit} noValidate>
      <h2>Sign in</h2>
      <FormError failure={failure} title="Could not sign in" placed={['email', 'password']} />
      <Field id="email" label="Email" required error={fieldError(failure, 'email')}>
        <input
          {...described('email', { error: fieldError(failure, 'email'), required: true })}
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </Field>
      <Field id="password" label="Password" required error={fieldError(failure, 'password')}>
        <input
          {...described('password', { error: fieldError(failure, 'password'), required: true })}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      <SubmitButton pending={login.isPending} pendingText="Signing in…" disabled={!ready}>
        Sign in
      </SubmitButton>
    </form>
  );
}
