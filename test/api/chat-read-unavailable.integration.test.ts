import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { openPostgres } from '@/db/client';
import { loadChatOrFail } from '@/lib/chats/chat-view';
import { ApiError } from '@/platform/errors';
import { toApiError } from '@/platform/http/respond';
import { expectingErrors } from '../support/logs';
import { freePort } from '../support/private-cluster';

// GET /chats/{id} while the database cannot be reached: the 503 2050 with Retry-After that every
// other read answers, not the 500 4108 of a broken read. The database here is a real postgres.js
// pool pointed at a port nothing listens on, so every query fails as in an outage.
describe('reading a chat while the database cannot be reached', async () => {
  const handle = await openPostgres(`postgres://postgres@127.0.0.1:${await freePort()}/none`, { migrate: false });
  after(() => handle.close());
  const where = { accountId: 1, chatId: '00000000-0000-0000-0000-000000000000' };

  it('a plain read answers 503 2050 with Retry-After', async () => {
    const failure = await loadChatOrFail(handle.db, where).then(
      () => assert.fail('the read succeeded'),
      (err: unknown) => err,
    );
    assert.ok(!(failure instanceof ApiError), `${failure}`);
    const answer = toApiError(failure);
    assert.equal(answer.code, 2050);
    assert.equal(answer.httpStatus, 503);
    assert.equal(answer.headers?.['Retry-After'], '5');
  });

  it('the read after a committed change stays 4108 (the change is done; a 503 would invite a retry), and is logged', async () => {
    const { logged } = await expectingErrors(['chat read failed'], () =>
      assert.rejects(
        loadChatOrFail(handle.db, where, { afterWrite: true }),
        (err: unknown) => err instanceof ApiError && err.code === 4108,
      ),
    );
    assert.deepEqual(
      logged.map((l) => l.fields.chatId),
      [where.chatId],
    );
  });
});
