'use client';

import { type FormEvent, useEffect, useRef, useState } from 'react';
import { failureOf } from '@/components/shared/errors';
import { keys, tsr } from './client';

/** The workspace's sign-in form, shown at /agent while nobody is signed in. */
export function SignInForm() {
  const tsrQc = tsr.useQueryClient();
  const login = tsr.session.login.useMutation({ onSuccess: (res) => tsrQc.session.me.setQueryData(keys.me, res) });
  const error = failureOf(login.error)?.description;
  const errorRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);
  const pending = login.isPending;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    login.mutate({ body: { email: String(form.get('email')), password: String(form.get('password')) } });
  };
  return (
    <main className="agent-login">
      <h1>Agent workspace</h1>
      <form className="card login-card" onSubmit={submit}>
        <h2>Sign in</h2>
        {error && (
          <div className="form-error" role="alert" tabIndex={-1} ref={errorRef}>
            Could not sign in: {error}
          </div>
        )}
        <div className="field">
          <label htmlFor="agent-email">Email</label>
          <input id="agent-email" name="email" type="email" autoComplete="username" required />
        </div>
        <div className="field">
          <label htmlFor="agent-password">Password</label>
          <input id="agent-password" name="password" type="password" autoComplete="current-password" required />
        </div>
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}

/** The invite link's page: the token comes after `#` (never sent to a server); the person sets their password. */
export function AcceptInviteForm() {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const accept = tsr.session.acceptInvite.useMutation();
  const errorRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    setToken(window.location.hash.slice(1) || '');
  }, []);
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    if (form.get('password') !== form.get('repeat')) {
      setError('the two passwords differ.');
      return;
    }
    setPending(true);
    accept.mutate(
      { body: { token: token ?? '', password: String(form.get('password')) } },
      {
        // The link is spent: leave it out of the history and open the workspace.
        onSuccess: () => window.location.replace('/agent'),
        onError: (err) => {
          setError(failureOf(err)?.description ?? null);
          setPending(false);
        },
      },
    );
  };
  return (
    <main className="agent-login">
      <h1>Agent workspace</h1>
      <form className="card login-card" onSubmit={submit}>
        <h2>Set your password</h2>
        {token === '' && <p role="alert">This link carries no invite. Ask an administrator for a new one.</p>}
        {error && (
          <div className="form-error" role="alert" tabIndex={-1} ref={errorRef}>
            Not saved: {error}
          </div>
        )}
        <p className="hint" id="password-hint">
          At least 12 characters; a phrase of unrelated words is best.
        </p>
        <div className="field">
          <label htmlFor="invite-password">New password</label>
          <input
            id="invite-password"
            name="password"
            type="password"
            autoComplete="new-password"
            aria-describedby="password-hint"
            minLength={12}
            required
          />
        </div>
        <div className="field">
          <label htmlFor="invite-repeat">Repeat the password</label>
          <input id="invite-repeat" name="repeat" type="password" autoComplete="new-password" required />
        </div>
        <button type="submit" className="btn btn-primary" disabled={pending || !token}>
          {pending ? 'Saving…' : 'Set password and sign in'}
        </button>
      </form>
    </main>
  );
}
