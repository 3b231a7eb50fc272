import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditQuerySchema } from '@/contracts/admin/schemas/audit';
import { adminMessageBodySchema } from '@/contracts/admin/schemas/chat';
import { createSkillBodySchema } from '@/contracts/admin/schemas/team';
import { createUserBodySchema } from '@/contracts/admin/schemas/user';
import { createVirtualAgentBodySchema } from '@/contracts/admin/schemas/virtual-agent';
import { contractResolver, wordsFor } from './form-words';

const options = { fields: {}, shouldUseNativeValidation: false } as never;

describe('form errors in our own words', () => {
  it('name the field and say what to do, from the contract schema', () => {
    const labels = { name: 'the name', description: 'the description', webhook_url: 'the webhook URL', team_id: 'choose:the team' };
    const res = createVirtualAgentBodySchema.safeParse(
      { name: '', description: 'x'.repeat(1001), webhook_url: '', team_id: undefined },
      { errorMap: wordsFor(labels) },
    );
    assert.equal(res.success, false);
    const byPath = Object.fromEntries(res.error!.issues.map((i) => [i.path.join('.'), i.message]));
    assert.equal(byPath.name, 'Enter the name.');
    assert.equal(byPath.description, 'The description can be at most 1000 characters: shorten it.');
    assert.equal(byPath.webhook_url, 'Enter the webhook URL.');
    assert.equal(byPath.team_id, 'Choose the team.');
    assert.doesNotMatch(Object.values(byPath).join(' '), /String must contain|Required|Expected/);
  });

  it('prefix messages written in the schema with the field, and hand the checked body to the submit handler', async () => {
    const labels = { login_id: 'the login ID', name: 'the name', email: 'the email' };
    const resolver = contractResolver(
      createUserBodySchema,
      (v: { login: string; name: string }) => ({ kind: 'agent', login_id: v.login, name: v.name }),
      labels,
    );
    const bad = await resolver({ login: 'two words', name: 'Ann' }, undefined, options);
    assert.deepEqual(Object.fromEntries(Object.entries(bad.errors).map(([k, v]) => [k, (v as { message: string }).message])), {
      login_id: 'The login ID: may not contain spaces; must not contain NUL characters or unpaired surrogates.',
    });
    const good = await resolver({ login: 'ann', name: ' Ann ' }, undefined, options);
    assert.deepEqual(good.values, { kind: 'agent', login_id: 'ann', name: 'Ann' });
  });

  it('word the small forms too: a skill name of spaces, a too-long filter, an attachment that is not a web address', async () => {
    const messages = async (resolver: ReturnType<typeof contractResolver>, values: object) =>
      JSON.stringify((await resolver(values as never, undefined, options)).errors);
    const skill = contractResolver(createSkillBodySchema, (v: { name: string }) => v, { name: 'the skill name' });
    assert.match(await messages(skill as never, { name: '   ' }), /"Enter the skill name\."/);
    const audit = contractResolver(auditQuerySchema.pick({ admin_email: true }), (v: { admin_email: string }) => v, {
      admin_email: 'the administrator',
    });
    assert.match(
      await messages(audit as never, { admin_email: 'x'.repeat(321) }),
      /The administrator can be at most 320 characters: shorten it\./,
    );
    const message = contractResolver(adminMessageBodySchema, (v: object) => v, {
      text: 'the text',
      attachment: 'the attachment',
      'attachment.url': 'the attachment URL',
    });
    const bad = await message({ type: 'inbound', attachment: { type: 'image', url: 'not a url' } } as never, undefined, options);
    assert.equal(
      (bad.errors as { attachment?: { url?: { message?: string } } }).attachment?.url?.message,
      'The attachment URL must be a full web address starting with https://.',
    );
  });
});
