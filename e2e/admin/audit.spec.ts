import { expect, test } from '../fixtures';
import { signIn, uniqueSuffix } from './helpers';

test('the audit log shows who changed what, filters by target, and never the text that was sent', async ({ page }) => {
  await signIn(page, '/admin/audit');
  const suffix = uniqueSuffix();
  const created = await page.request.post('/api/admin/teams', { data: { name: `Audited ${suffix}`, auto_assign: false } });
  expect(created.status()).toBe(201);
  const teamId = String((await created.json()).response.id);
  expect((await page.request.patch(`/api/admin/teams/${teamId}`, { data: { auto_assign: true } })).status()).toBe(200);

  // A target id is a number of any kind (event 9 and team 9 are both target 9): the action says which.
  await page.getByLabel('Action', { exact: true }).fill('teams');
  await page.getByLabel('Target id', { exact: true }).fill(teamId);
  await page.getByRole('button', { name: 'Filter' }).click();
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('PATCH /api/admin/teams/:id');
  await expect(rows.first()).toContainText('auto_assign=true');
  await expect(rows.first()).toContainText('200');

  await page.getByLabel('Target id', { exact: true }).fill('');
  await page.getByLabel('Action', { exact: true }).fill('teams');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByRole('cell', { name: 'POST /api/admin/teams', exact: true }).first()).toBeVisible();
  await expect(page.locator('main')).not.toContainText(`Audited ${suffix}`);
});
