import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { invitePerson } from '@/lib/agent-auth/invite-person';
import { addUser } from '@/lib/users/add-user';
import { updateUser } from '@/lib/users/update-user';
import { loadUsers } from '@/lib/users/user-view';
import { publicBase } from '@/lib/widget/public-base';
import type { AdminAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const usersRouter = tsr.routerWithMiddleware(adminContract.users)<{ admin: AdminAuth }>({
  listUsers: async ({ query }, { request }) =>
    ok(4400, await loadUsers(await getDb(), { accountId: request.admin.accountId, kind: query.kind })),
  createUser: async ({ body }, { request }) => ok(4401, await addUser(await getDb(), { accountId: request.admin.accountId, body })),
  updateUser: async ({ params, body }, { request }) =>
    ok(4400, await updateUser(await getDb(), { accountId: request.admin.accountId, userId: params.id, patch: body })),
  inviteUser: async ({ params, body }, { request }) =>
    ok(
      4401,
      await invitePerson(await getDb(), {
        accountId: request.admin.accountId,
        userId: params.id,
        email: body.email,
        base: publicBase(request),
      }),
    ),
});
