import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { users } from '@/db/schema';
import { createAccount } from '@/lib/accounts/create-account';
import { rotateApiKey } from '@/lib/virtual-agents/rotate-api-key';
import { rotateSigningSecret } from '@/lib/virtual-agents/rotate-signing-secret';
import { checkDemoLogin, demoLines, readDemoLogin, writeDemoLogin } from '@/platform/startup/demo-login';
import { seedDemo } from '@/platform/startup/seed-demo';
import { setupTestDatabase } from '../support/db';

describe('the demo login file', () => {
  const ctx = setupTestDatabase();

  it('keeps live credentials and replaces rotated ones by how to get new ones, never printing the dead key', async () => {
    const { account } = await createAccount(ctx.db, {
      name: 'Demo',
      adminEmail: 'demo-login@example.test',
      adminPassword: 'demo-login-password-k7',
    });
    const webhookUrl = 'http://127.0.0.1:3001/webhook';
    const demo = await seedDemo(ctx.db, { accountId: account.id, webhookUrl });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'demo-login-')), 'demo-login.txt');
    writeDemoLogin(
      demoLines({
        adminLogin: 'a@demo.test / pw',
        apiKey: demo.apiKey,
        signingSecret: demo.signingSecret,
        webhookUrl,
        vaId: demo.vaId,
        widgetAppId: demo.livechatAssetId,
      }),
      file,
    );

    const first = await checkDemoLogin(ctx.db, readDemoLogin(file)!);
    assert.equal(first.apiKey, demo.apiKey);
    assert.equal(first.signingSecret, demo.signingSecret);
    assert.equal(first.webhookUrl, webhookUrl);
    assert.equal(first.widgetAppId, demo.livechatAssetId, 'the demo prints the chat widget of its livechat asset');
    assert.match(
      fs.readFileSync(file, 'utf8'),
      new RegExp(`^Chat widget \\(write as a customer\\): http://localhost:\\d+/chat/${demo.livechatAssetId}$`, 'm'),
    );

    await rotateApiKey(ctx.db, { accountId: account.id, id: demo.vaId, mode: 'at_once' });
    await rotateSigningSecret(ctx.db, { accountId: account.id, id: demo.vaId, mode: 'at_once' });
    const after = await checkDemoLogin(ctx.db, readDemoLogin(file)!);
    assert.equal(after.apiKey, null);
    assert.equal(after.signingSecret, null);
    const lines = demoLines(after);
    writeDemoLogin(lines, file);
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(!text.includes(demo.apiKey), 'the rotated key is gone from the file');
    assert.ok(!text.includes(demo.signingSecret), 'the rotated secret is gone from the file');
    assert.match(text, /Demo bot API key: rotated since it was written here; rotate it again at .*\/admin\/virtual-agents\/\d+/);
    assert.equal(readDemoLogin(file)!.apiKey, null, 'a later start reads no key rather than the explanation');

    // Disabled by an administrator (say, for a VA of one's own): the banner no longer says to start it.
    assert.match(text, /Start the demo bot/);
    await ctx.db.update(users).set({ enabled: false }).where(eq(users.id, demo.vaId));
    const disabled = demoLines(await checkDemoLogin(ctx.db, readDemoLogin(file)!)).join('\n');
    assert.doesNotMatch(disabled, /Start the demo bot/);
    assert.match(disabled, /The Demo Bot is disabled \(http:\/\/localhost:\d+\/admin\/virtual-agents\/\d+\)/);
  });
});
