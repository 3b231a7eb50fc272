import type { Db } from '@/db/client';
import { auditEntries } from '@/db/schema';
import { storableText } from '@/platform/util/storable-text';

export type AdminAction = {
  accountId: number;
  /** The administrator, or null for a person acting in the agent workspace (then `userId`). */
  adminId: number | null;
  userId?: number | null;
  adminEmail: string;
  method: string;
  /** The route's path pattern (`/virtual-agents/:id`), not the concrete path. */
  routePath: string;
  targetId: string | null;
  /** The JSON body as sent (or undefined): only its field names and non-string values are kept. */
  body: unknown;
  httpStatus: number;
  clientAddress: string;
  trxid: string;
};

/** Records one state-changing admin call. Never stores a string from the body (secrets, customer text). */
export async function recordAdminAction(db: Db, a: AdminAction): Promise<void> {
  const { fields, values } = describeBody(a.body);
  await db.insert(auditEntries).values({
    accountId: a.accountId,
    adminId: a.adminId,
    userId: a.userId ?? null,
    adminEmail: a.adminEmail,
    action: `${a.method} ${a.routePath}`,
    targetId: a.targetId === null ? null : storableText(a.targetId.slice(0, 200)),
    fields,
    values,
    httpStatus: a.httpStatus,
    clientAddress: a.clientAddress,
    trxid: a.trxid,
  });
}

/** Top-level field names, and the values of those that are booleans, numbers or null. */
function describeBody(body: unknown): { fields: string[]; values: Record<string, boolean | number | null> } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { fields: [], values: {} };
  const fields = Object.keys(body).slice(0, 50).sort();
  const values: Record<string, boolean | number | null> = {};
  for (const key of fields) {
    const v = (body as Record<string, unknown>)[key];
    if (typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v))) values[key] = v;
  }
  return {
    fields: fields.map((f) => storableText(f.slice(0, 100))),
    values: Object.fromEntries(Object.entries(values).map(([k, v]) => [storableText(k.slice(0, 100)), v])),
  };
}
