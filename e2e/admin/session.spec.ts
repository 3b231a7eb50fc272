import { E2E_ADMIN } from '../../playwright.config';
import { expect, test } from '../fixtures';
import { DESKTOP, screens, signIn } from './helpers';

test('an unauthenticated visit goes to sign-in, a wrong password is explained, and sign-out ends the session', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/admin\/login/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  await page.getByLabel('Email').fill(E2E_ADMIN.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Could not sign in' })).toContainText('Invalid email or password');
  await screens(page, 'login', page.getByRole('alert').filter({ hasText: 'Could not sign in' }));

  await signIn(page, '/admin/users');
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'API reference' })).toHaveAttribute(
    'href',
    '/docs',
  );

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  expect((await page.request.get('/api/admin/me')).status()).toBe(401);
  await page.goto('/admin/chats');
  await expect(page).toHaveURL(/\/admin\/login/);
});
