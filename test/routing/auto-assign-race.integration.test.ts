import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { and, eq, ne } from 'drizzle-orm';
import { chats } from '@/db/schema';
import { env } from '@/env';
import { createChat } from '@/lib/chats/create-chat';
import { updateChat } from '@/lib/chats/update-chat';
import { createTeam } from '@/lib/teams/create-team';
import { createUser } from '@/lib/users/create-user';
import { setupTestDatabase } from '../support/db';
import { describeOrSkip } from '../support/describe-or-skip';
import { createTenant, type Tenant } from '../support/tenant';

// PGlite has one connection and runs transactions one after another, so no race can happen there.
const skip = env().DATABASE_URL ? false : 'needs PostgreSQL (set DATABASE_URL): PGlite runs one transaction at a time';

const ROUNDS = 10;
const CAPACITIES = [1, 2, 1, 3, 2];

describeOrSkip('auto-assign under concurrency', skip, () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
  });

  const create = (teamId: number) =>
    createChat(ctx.db, {
      accountId: t.account.id,
      actorLoginId: t.bot.user.loginId,
      body: {
        channel: 'sms',
        asset_id: t.assets.sms.id,
        customer: { destination_id: `+1555${Math.floor(Math.random() * 1e7)}` },
        team_id: teamId,
      },
    });
  const close = (chatId: string, teamId: number) =>
    updateChat(ctx.db, { accountId: t.account.id, chatId, teamId, patch: { status: 'closed' }, actorUserId: null });

  it(`creates and closes chats at once, ${ROUNDS} times: no error, no seat taken twice, no free seat left idle`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const team = await createTeam(ctx.db, { accountId: t.account.id, name: `Race ${round}`, autoAssign: true });
      const members = [];
      for (const [i, capacity] of CAPACITIES.entries()) {
        members.push(
          await createUser(ctx.db, {
            accountId: t.account.id,
            kind: 'agent',
            loginId: `race-${round}-${i}`,
            name: `Race ${round} ${i}`,
            teamIds: [team.id],
            availability: 'available',
            capacity,
          }),
        );
      }
      // Half the seats taken first, so the members' loads differ when the race starts.
      const seeded = await Promise.all(Array.from({ length: 4 }, () => create(team.id)));
      const results = await Promise.allSettled([
        ...Array.from({ length: 12 }, () => create(team.id)),
        ...seeded.map((s) => close(s.chat.chat_id, team.id)),
      ]);
      const failures = results.filter((r) => r.status === 'rejected');
      assert.deepEqual(failures, [], `round ${round}`);

      const open = await ctx.db
        .select({ assigneeId: chats.assigneeId, status: chats.status })
        .from(chats)
        .where(and(eq(chats.teamId, team.id), ne(chats.status, 'closed')));
      assert.equal(open.length, 12, `round ${round}: the 12 new chats are open`);
      const load = new Map<number, number>();
      for (const c of open) if (c.assigneeId !== null) load.set(c.assigneeId, (load.get(c.assigneeId) ?? 0) + 1);
      const seats = CAPACITIES.reduce((a, b) => a + b, 0);
      for (const [i, m] of members.entries()) {
        assert.ok((load.get(m.id) ?? 0) <= CAPACITIES[i], `round ${round}: ${m.loginId} holds ${load.get(m.id)} > ${CAPACITIES[i]}`);
      }
      // Every seat is filled: the closes freed theirs, and the queued chats took them.
      assert.equal(open.filter((c) => c.assigneeId !== null).length, Math.min(seats, open.length), `round ${round}: assigned chats`);
      assert.equal(open.filter((c) => c.status === 'queued' && c.assigneeId === null).length, Math.max(0, open.length - seats));
    }
  });
});
