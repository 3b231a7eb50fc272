import type { Metadata } from 'next';
import { Suspense } from 'react';
import { LoginForm } from './login-form';

export const metadata: Metadata = { title: 'Sign in' };

export default function LoginPage() {
  return (
    <main className="login">
      <h1>VA Chat admin</h1>
      <Suspense>
        <LoginForm />
      </Suspense>
    </main>
  );
}
