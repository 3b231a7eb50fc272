import net from 'node:net';
import type { Page } from '@playwright/test';
import { startBot } from '../../examples/bot/bot';
import { expect, test } from '../fixtures';
import { screens, signIn, uniqueSuffix } from './helpers';

/**
 * Replay from the console in Chromium, against the TypeScript example bot run by this test: a
 * sandbox VA registered on the page (its key and secret read off the once-only box), a recording
 * uploaded, a baseline run followed to `done`; then the bot with its planted regression replayed
 * against that baseline, and the diff page read as a person reads it: one chat changed, its
 * handover decision, the turn it changed at, and the thresholds failed. Export shows its refusal.
 */
const line = (id: string, turns: string[], suffix: string) => ({
  format: 'va-chat-recording',
  version: 1,
  id,
  channel: 'api',
  customer: { destination_id: `e2e-${id}-${suffix}`, name: 'Replayed customer' },
  turns: turns.map((text) => ({ customer: [{ text }] })),
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

test('a replay started from the console completes and its diff names the changed handover', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const suffix = uniqueSuffix();
  await signIn(page, '/admin/replays');
  // The sandbox copies the live account's team names: the bot hands refunds to this one.
  const team = await page.request.post('/api/admin/teams', { data: { name: `Replay people ${suffix}`, auto_assign: false } });
  expect(team.status()).toBe(201);
  const recording = [
    line('plain', ['hello', 'my order is late', 'thanks'], suffix),
    line('refund', ['hello', 'I want a refund for order 12', 'are you there?'], suffix),
    line('person', ['hi', 'can I talk to a person?', 'hello?'], suffix),
  ]
    .map((l) => JSON.stringify(l))
    .join('\n');
  const closers: (() => Promise<void>)[] = [];

  /** Registers a sandbox VA on the page and starts the example bot with the key and secret it shows once. */
  async function sandboxBot(name: string, regression?: 'no-refund-handover') {
    const port = await freePort();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Webhook URL').fill(`http://127.0.0.1:${port}/webhook`);
    await page.getByRole('button', { name: 'Register sandbox VA' }).click();
    const reveal = page.getByTestId('secret-reveal');
    await expect(reveal).toBeVisible();
    const apiKey = await page.locator('#revealed-api-key').inputValue();
    const signingSecret = await page.locator('#revealed-signing-secret').inputValue();
    await reveal.getByRole('button', { name: 'I have stored them' }).click();
    const bot = await startBot({
      baseUrl: baseURL as string,
      apiKey,
      signingSecret,
      port,
      handoverTeam: `Replay people ${suffix}`,
      regression,
      log: () => {},
    });
    closers.push(bot.close);
  }

  async function startRun(p: Page, label: string, against?: string) {
    await p
      .getByLabel('Recording (.jsonl)')
      .setInputFiles({ name: 'recording.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(recording) });
    // The VA just registered is chosen for the run.
    await expect(p.getByLabel('Bot under test (sandbox VA)')).not.toHaveValue('');
    if (against) await p.getByLabel('Compare with').selectOption({ label: `Run ${against}` });
    await p.getByText('Label and timings').click();
    await p.getByLabel('Label', { exact: true }).fill(label);
    await p.getByLabel('Quiet time that ends a turn (ms, default 300)').fill('200');
    await p.getByRole('button', { name: 'Start the replay' }).click();
    await expect(p).toHaveURL(/\/admin\/replays\/rpl_[\w-]+/);
    await expect(p.getByTestId('run-status')).toHaveText('done', { timeout: 90_000 });
    await expect(p.getByTestId('run-count')).toContainText('3 / 3 chats');
    return new URL(p.url()).pathname.split('/').pop() as string;
  }

  try {
    await page.getByRole('link', { name: 'Start a replay' }).click();
    await expect(page.getByRole('heading', { name: 'Start a replay' })).toBeVisible();
    // A file the format refuses is named line by line, and nothing starts.
    await sandboxBot(`Baseline bot ${suffix}`);
    await page
      .getByLabel('Recording (.jsonl)')
      .setInputFiles({ name: 'bad.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from('{"format":"x"}\n') });
    await page.getByRole('button', { name: 'Start the replay' }).click();
    await expect(page.locator('.form-error[role=alert]')).toContainText('line 1: format');

    const baseline = await startRun(page, `baseline ${suffix}`);
    await expect(page.getByTestId('chats-changed')).toContainText('0');

    await page.goto('/admin/replays/new');
    await sandboxBot(`Regressed bot ${suffix}`, 'no-refund-handover');
    await page.getByLabel('a handover change').check();
    await startRun(page, `candidate ${suffix}`, `baseline ${suffix}`);
    expect(page.url()).toContain(`against=${baseline}`);

    // The summary a person reads first, then the chat, turn by turn.
    await expect(page.getByTestId('chats-changed')).toContainText('1');
    await expect(page.getByTestId('handover-changed')).toContainText('1');
    await expect(page.getByTestId('verdict')).toContainText('Failed the thresholds: 1 chat(s) with a changed handover');
    const refund = page.getByTestId('chat-refund');
    await expect(refund).toContainText('changed from turn 2');
    await expect(refund).toContainText('handover decision changed');
    await expect(refund.getByTestId('turn-2')).toContainText(`Replay people ${suffix} → stays with the bot`);
    await expect(refund.getByTestId('turn-3')).toContainText('not reached');
    await expect(page.getByTestId('chat-plain')).toHaveCount(0);
    await screens(page, 'replay-diff', page.getByTestId('chat-refund'));

    // The list shows both runs done; the export page says what it refused.
    await page.getByRole('link', { name: 'All replays' }).click();
    await expect(page.getByRole('link', { name: `candidate ${suffix}` })).toBeVisible();
    await page.getByRole('link', { name: 'Export recordings' }).click();
    await page.getByLabel('At most this many chats').fill('0');
    await page.getByRole('button', { name: 'Export and download' }).click();
    await expect(page.locator('.form-error[role=alert]')).toContainText('Not exported');
    await expect(page.locator('#export-limit-error')).toBeVisible();
  } finally {
    for (const close of closers) await close();
  }
});
