import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { auditEntries } from '@/db/schema';
import { deleteOldAuditEntries } from '@/lib/audit/delete-old-audit-entries';
import type { ApiClient } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { signedInAdmin } from '../support/people';

describe('audit log', () => {
  const ctx = setupTestDatabase();
  let admin: ApiClient;
  let email: string;
  let other: ApiClient;
  before(async () => {
    ({ client: admin, email } = await signedInAdmin(ctx.db));
    ({ client: other } = await signedInAdmin(ctx.db));
  });

  it('records who changed what, from where, without any text that was sent', async () => {
    const created = await admin.post(
      '/teams',
      { name: 'Secret-ish team name', auto_assign: true },
      { headers: { 'x-forwarded-for': '203.0.113.9' } },
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const teamId = created.body.response.id;
    await admin.patch(`/teams/${teamId}`, { auto_assign: false });

    const log = await admin.get('/audit-entries');
    assert.equal(log.status, 200, JSON.stringify(log.body));
    const [patch, post] = log.body.response.entries;
    assert.equal(patch.action, 'PATCH /api/admin/teams/:id');
    assert.equal(patch.target_id, String(teamId));
    assert.deepEqual(patch.values, { auto_assign: false });
    assert.equal(post.action, 'POST /api/admin/teams');
    assert.equal(post.admin_email, email);
    assert.equal(post.client_address, '203.0.113.9');
    assert.equal(post.http_status, 201);
    assert.deepEqual(post.fields, ['auto_assign', 'name']);
    assert.ok(!JSON.stringify(log.body).includes('Secret-ish'), 'text values are never recorded');
    assert.ok(
      log.body.response.entries.every((e: { action: string }) => !e.action.startsWith('GET')),
      'reads are not recorded',
    );
  });

  it('records refused changes with their status, filters, and pages; other accounts see none of it', async () => {
    await admin.patch('/teams/999999', { auto_assign: true });
    const refused = (await admin.get('/audit-entries?target_id=999999')).body.response.entries;
    assert.equal(refused.length, 1);
    assert.equal(refused[0].http_status, 404);

    const first = (await admin.get('/audit-entries?page_size=1&action=teams')).body.response;
    assert.equal(first.entries.length, 1);
    const second = (await admin.get(`/audit-entries?page_size=1&action=teams&cursor=${first.next_cursor}`)).body.response;
    assert.notEqual(second.entries[0].id, first.entries[0].id);
    assert.equal(
      (await admin.get(`/audit-entries?admin_email=${encodeURIComponent('nobody@example.test')}`)).body.response.entries.length,
      0,
    );
    assert.equal((await other.get('/audit-entries')).body.response.entries.length, 0);
    assert.equal((await admin.get('/audit-entries?since=yesterday')).body.status_code, 2001);
  });

  it('records a refused change whose path and field names hold NUL or a lone surrogate', async () => {
    const refused = await admin.patch(`/teams/${encodeURIComponent('x\u0000y')}`, { 'k\u0000': true, '\ud800': 1 });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    const [entry] = (await admin.get('/audit-entries?page_size=1')).body.response.entries;
    assert.equal(entry.action, 'PATCH /api/admin/teams/:id');
    assert.equal(entry.target_id, 'x\uFFFDy');
    assert.deepEqual(entry.fields.sort(), ['k\uFFFD', '\uFFFD'].sort());
    assert.deepEqual(entry.values, { 'k\uFFFD': true, '\uFFFD': 1 });
  });

  it('deletes entries older than the retention cut-off, in batches', async () => {
    await ctx.db.execute(sql`update ${auditEntries} set created_at = now() - interval '400 days'`);
    await admin.post('/teams', { name: 'Fresh team', auto_assign: false });
    const before = new Date(Date.now() - 365 * 86_400_000);
    const total = (await ctx.db.select({ id: auditEntries.id }).from(auditEntries)).length;
    assert.equal(await deleteOldAuditEntries(ctx.db, { before, limit: 2 }), 2);
    let deleted = 2;
    for (let n = 2; n === 2; deleted += n) n = await deleteOldAuditEntries(ctx.db, { before, limit: 2 });
    assert.equal((await ctx.db.select({ id: auditEntries.id }).from(auditEntries)).length, 1);
    assert.equal(deleted, total - 1);
  });
});
