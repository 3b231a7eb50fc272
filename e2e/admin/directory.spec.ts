import { expect, test } from '../fixtures';
import { screens, signIn, uniqueSuffix } from './helpers';

test('teams, skills, agents and routing rules are edited from their pages', async ({ page }) => {
  const suffix = uniqueSuffix();
  const team = `Care ${suffix}`;
  await signIn(page, '/admin/teams');

  const newTeam = page.getByRole('form', { name: 'New team' });
  await newTeam.getByLabel('Name').fill(team);
  await newTeam.getByRole('button', { name: 'Create team' }).click();
  const card = page.getByRole('region', { name: team });
  await expect(card).toBeVisible();
  await newTeam.getByLabel('Name').fill(team);
  await newTeam.getByRole('button', { name: 'Create team' }).click();
  await expect(newTeam.getByRole('alert')).toContainText('Name already in use');

  await card.getByLabel('Add a skill').fill('refunds');
  await card.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(card.getByRole('list', { name: `Skills of ${team}` })).toContainText('refunds');
  const autoAssign = card.getByRole('switch', { name: `Auto-assign chats in ${team}` });
  await expect(autoAssign).toHaveAttribute('aria-checked', 'false');
  await autoAssign.click();
  await expect(autoAssign).toHaveAttribute('aria-checked', 'true');
  await screens(page, 'teams', card);

  // An agent in the team, then made available from the list.
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Users' }).click();
  await page.getByRole('button', { name: 'Add agent' }).click();
  const agentForm = page.getByRole('form', { name: 'Add agent' });
  await agentForm.getByLabel('Login ID').fill(`ann-${suffix}`);
  await agentForm.getByLabel('Name', { exact: true }).fill(`Ann ${suffix}`);
  await agentForm.getByRole('checkbox', { name: team }).check();
  await agentForm.getByRole('checkbox', { name: /refunds/ }).check();
  await agentForm.getByRole('button', { name: 'Add agent' }).click();
  const row = page.getByRole('row').filter({ hasText: `ann-${suffix}` });
  await expect(row).toContainText('refunds');
  const available = row.getByRole('switch', { name: `Ann ${suffix} available` });
  await expect(available).toHaveAttribute('aria-checked', 'false');
  await available.click();
  await expect(available).toHaveAttribute('aria-checked', 'true');
  await screens(page, 'users-agents', row);

  // A routing rule: created, edited, disabled and deleted.
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Routing rules' }).click();
  await page.getByRole('button', { name: 'New rule' }).click();
  const ruleForm = page.getByRole('form', { name: 'New routing rule' });
  await ruleForm.getByLabel('Name').fill(`Refunds ${suffix}`);
  await ruleForm.getByLabel('Send to team').selectOption({ label: team });
  await ruleForm.getByLabel('Skill').selectOption('refunds');
  await ruleForm.getByLabel('Operator').selectOption('in');
  await ruleForm.getByLabel('Values (comma-separated)').fill('sms, email');
  await ruleForm.getByRole('button', { name: 'Create rule' }).click();
  const ruleRow = page.getByRole('row').filter({ hasText: `Refunds ${suffix}` });
  await expect(ruleRow).toContainText('channel in [sms, email]');
  await ruleRow.getByRole('button', { name: /Edit/ }).click();
  const editForm = page.getByRole('form', { name: `Edit rule Refunds ${suffix}` });
  await editForm.getByRole('button', { name: 'Add condition' }).click();
  await editForm.getByLabel('Field 2').selectOption('other_details');
  await editForm.getByLabel('Key').fill('tier');
  await editForm.getByLabel('Value', { exact: true }).fill('gold');
  await editForm.getByRole('button', { name: 'Save rule' }).click();
  await expect(ruleRow).toContainText('other_details.tier equals "gold"');
  await ruleRow.getByRole('switch').click();
  await expect(ruleRow.getByRole('switch')).toHaveAttribute('aria-checked', 'false');
  await screens(page, 'routing', ruleRow);
  await ruleRow.getByRole('button', { name: /^Delete/ }).click();
  await ruleRow.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(page.getByRole('row').filter({ hasText: `Refunds ${suffix}` })).toHaveCount(0);
});
