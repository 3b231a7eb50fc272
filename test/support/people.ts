import { randomBytes } from 'node:crypto';
import type { Db } from '@/db/client';
import { admins } from '@/db/schema';
import { createAccount } from '@/lib/accounts/create-account';
import { createUser } from '@/lib/users/create-user';
import { hashPassword } from '@/platform/auth/passwords';
import { ApiClient, widgetApi } from './api-client';

/** The people of a test: administrators, agents and widget customers, signed in through the real APIs. */

export const ADMIN_PASSWORD = 'correct horse battery';
export const AGENT_PASSWORD = 'plum orbit lantern quietly';

/** A new account with an administrator, and a client signed in as them. */
export async function signedInAdmin(db: Db, opts: { platform?: boolean } = {}) {
  const tag = randomBytes(4).toString('hex');
  const email = `admin-${tag}@example.test`;
  const { account } = await createAccount(db, {
    name: `Account ${tag}`,
    adminEmail: email,
    adminPassword: ADMIN_PASSWORD,
    isPlatformAdmin: opts.platform,
  });
  const client = new ApiClient('admin');
  const reply = await client.login(email, ADMIN_PASSWORD);
  if (reply.status !== 200) throw new Error(`login failed: ${JSON.stringify(reply.body)}`);
  return { account, email, client, tag };
}

/** A further administrator of an existing account (e.g. a `createTenant` one), signed in. */
export async function signedInAdminOf(db: Db, accountId: number) {
  const email = `extra-${randomBytes(4).toString('hex')}@example.test`;
  await db.insert(admins).values({ accountId, email, passwordHash: await hashPassword(ADMIN_PASSWORD) });
  const client = new ApiClient('admin');
  const reply = await client.login(email, ADMIN_PASSWORD);
  if (reply.status !== 200) throw new Error(`login failed: ${JSON.stringify(reply.body)}`);
  return { email, client };
}

/** Invites the user through the admin API and accepts the invite; answers a signed-in workspace client. */
export async function signedInAgent(admin: ApiClient, userId: number, email: string) {
  const invite = await admin.post(`/users/${userId}/invite`, { email });
  if (invite.status !== 201) throw new Error(`invite failed: ${JSON.stringify(invite.body)}`);
  const token = new URL(invite.body.response.invite_url).hash.slice(1);
  const client = new ApiClient('agent');
  const accepted = await client.post('/invite/accept', { token, password: AGENT_PASSWORD });
  if (accepted.status !== 200) throw new Error(`accept failed: ${JSON.stringify(accepted.body)}`);
  return client;
}

/** A further person of the account, in `teamIds`, signed in to the workspace. */
export async function newSignedInAgent(
  db: Db,
  admin: ApiClient,
  { accountId, teamIds, tag, capacity = 3 }: { accountId: number; teamIds: number[]; tag: string; capacity?: number },
) {
  const user = await createUser(db, {
    accountId,
    kind: 'agent',
    loginId: `person-${tag}`,
    name: `Person ${tag}`,
    teamIds,
    capacity,
    availability: 'unavailable',
  });
  const email = `person-${tag}@example.test`;
  return { user, email, client: await signedInAgent(admin, user.id, email) };
}

/** A new widget customer of the app: their livechat id and credential. */
export async function newVisitor(appId: number, address?: string): Promise<{ livechatId: string; token: string }> {
  const res = await widgetApi('POST', `/apps/${appId}/visitors`, { address });
  if (res.status !== 201) throw new Error(`visitor not created: ${JSON.stringify(res.body)}`);
  return { livechatId: res.body.response.livechat_id, token: res.body.response.token };
}

/** A widget customer's live stream of their chat, in process; throws on a refusal. */
export async function openWidgetStream(chatId: string, token: string, opts: { after?: number; lastEventId?: string } = {}) {
  const query = opts.after === undefined ? '' : `?after=${opts.after}`;
  const opened = await new ApiClient('widget', { token, address: '198.51.100.90' }).stream(`/chats/${chatId}/stream${query}`, {
    lastEventId: opts.lastEventId,
  });
  if (!opened.sse) throw new Error(`stream refused: ${opened.status} ${JSON.stringify(opened.refusal)}`);
  return Object.assign(opened.sse, { res: { status: opened.status, headers: opened.headers } });
}
