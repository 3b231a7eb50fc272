import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { chats, messages } from '@/db/schema';
import { type ApiClient, botApi, widgetApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { newSignedInAgent, newVisitor, signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

/**
 * Rows the contract would never write (stored before a rule existed, by hand, or by a bug) still
 * reach every surface in the contract's shape: a page reads the text, the attachment and the quick
 * replies of each message, and one odd row took the console's chat page and the workspace down
 * (`url.slice is not a function`) and the widget's transcript with them (500). The odd part is left
 * out, the rest of the message and of the transcript is given.
 */
describe('odd stored rows on every surface', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let admin: ApiClient;
  let agent: ApiClient;
  let visitor: { token: string };
  let chatId: string;

  const ODD: [string, unknown][] = [
    ['attachment url not text', { text: 'odd 1', attachment: { type: 'file', url: 123 } }],
    ['attachment not an object', { text: 'odd 2', attachment: 'https://x.test/a.png' }],
    ['attachment of no known type', { text: 'odd 3', attachment: { type: 'hologram', url: 'https://x.test/a' } }],
    ['offer options not a list', { text: 'odd 4', quick_replies: { request_identifier: 'r', options: 'yes,no' } }],
    ['answer option without a title', { text: 'odd 5', quick_reply_response: { request_identifier: 'r', options: [{ title: null }] } }],
    ['text not text', { text: 42, attachment: { type: 'image', url: 'https://x.test/odd-6.png' } }],
    ['a body that is no object', 'just a string'],
  ];

  before(async () => {
    t = await createTenant(ctx.db);
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    agent = (await newSignedInAgent(ctx.db, admin, { accountId: t.account.id, teamIds: [t.humanTeam.id], tag: 'rows' })).client;
    visitor = await newVisitor(t.assets.livechat.id, '198.51.100.61');
    const started = await widgetApi('POST', '/chats', { token: visitor.token, address: '198.51.100.61', body: { text: 'hello' } });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    chatId = started.body.response.chat_id;
    // In the person's team, so the workspace may read it.
    await ctx.db.update(chats).set({ teamId: t.humanTeam.id }).where(eq(chats.id, chatId));
    const row = (body: unknown) => ({ chatId, accountId: t.account.id, transid: `odd-${randomUUID()}`, type: 'outbound' as const, body });
    await ctx.db.insert(messages).values([
      ...ODD.map(([, body]) => row(body)),
      // A URL a page cannot decode, written before the rule that refuses it: left out too.
      row({ text: 'odd 7', attachment: { type: 'image', url: 'https://x.test/%E0%A4%A' } }),
      row({ text: 'good', attachment: { type: 'image', url: 'https://x.test/a%20b.png' } }),
    ] as (typeof messages.$inferInsert)[]);
  });

  type Shown = { text?: unknown; attachment?: unknown; quick_replies?: unknown; quick_reply_response?: unknown };
  const check = (what: string, shown: Shown[]) => {
    const byText = (text: string) => shown.find((m) => m.text === text);
    for (const n of [1, 2, 3, 7])
      assert.deepEqual(Object.keys(byText(`odd ${n}`) ?? { missing: 1 }).includes('attachment'), false, `${what}: odd ${n}`);
    assert.ok(byText('odd 4') && !('quick_replies' in (byText('odd 4') as object)), `${what}: odd 4`);
    assert.ok(byText('odd 5') && !('quick_reply_response' in (byText('odd 5') as object)), `${what}: odd 5`);
    // The text that was no text is left out; the message's good attachment is given.
    const sixth = shown.find((m) => (m.attachment as { url?: string } | undefined)?.url === 'https://x.test/odd-6.png');
    assert.ok(sixth && !('text' in sixth), `${what}: odd 6`);
    assert.deepEqual(byText('good')?.attachment, { type: 'image', url: 'https://x.test/a%20b.png' }, `${what}: the good row`);
  };

  it('the console, the workspace, the widget and the bot API read the chat, the odd parts left out', async () => {
    const consoleChat = await admin.get(`/chats/${chatId}`);
    assert.equal(consoleChat.status, 200, JSON.stringify(consoleChat.body));
    check('console', consoleChat.body.response.messages);

    const workspaceChat = await agent.get(`/chats/${chatId}`);
    assert.equal(workspaceChat.status, 200, JSON.stringify(workspaceChat.body));
    check('workspace', workspaceChat.body.response.transcript);

    const widget = await widgetApi('GET', `/chats/${chatId}/messages`, { token: visitor.token, address: '198.51.100.61' });
    assert.equal(widget.status, 200, JSON.stringify(widget.body));
    check('widget', widget.body.response.messages);

    const bot = await botApi('GET', `/chats/${chatId}/messages`, { token: t.token });
    assert.equal(bot.status, 200, JSON.stringify(bot.body));
    check('bot API', bot.body.response.messages);
  });
});
