import { and, desc, eq, gte, ilike, lt, or, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditQuery } from '@/contracts/admin/schemas/audit';
import type { Db } from '@/db/client';
import { auditEntries } from '@/db/schema';
import { decodeCursor, encodeCursor } from '@/platform/util/cursor';

const isCursor = (p: unknown[]): p is [string, number] => p.length === 2 && typeof p[0] === 'string' && Number.isInteger(p[1]);

/**
 * The account's audit entries, newest first, filtered; pages by (created_at, id) so the account
 * index `audit_entries_account_created_idx` serves both the order and the page boundary.
 */
export async function listAuditEntries(db: Db, { accountId, query }: { accountId: number; query: AuditQuery }) {
  const where: SQL[] = [eq(auditEntries.accountId, accountId)];
  if (query.admin_email) where.push(eq(auditEntries.adminEmail, query.admin_email.toLowerCase()));
  if (query.action) where.push(ilike(auditEntries.action, `%${query.action.replace(/[\\%_]/g, '\\$&')}%`));
  if (query.target_id) where.push(eq(auditEntries.targetId, query.target_id));
  if (query.since) where.push(gte(auditEntries.createdAt, new Date(query.since)));
  if (query.until) where.push(lt(auditEntries.createdAt, new Date(query.until)));
  if (query.cursor) {
    const [at, id] = decodeCursor(query.cursor, isCursor);
    const atDate = new Date(at);
    where.push(or(lt(auditEntries.createdAt, atDate), and(eq(auditEntries.createdAt, atDate), lt(auditEntries.id, id))) as SQL);
  }
  const pageSize = query.page_size ?? 25;
  const rows = await db
    .select()
    .from(auditEntries)
    .where(and(...where))
    .orderBy(desc(auditEntries.createdAt), desc(auditEntries.id))
    .limit(pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  const entries: AuditEntry[] = page.map((r) => ({
    id: r.id,
    at: r.createdAt.toISOString(),
    admin_email: r.adminEmail,
    action: r.action,
    target_id: r.targetId,
    fields: r.fields,
    values: r.values,
    http_status: r.httpStatus,
    client_address: r.clientAddress,
    trxid: r.trxid,
  }));
  return { entries, next_cursor: rows.length > pageSize && last ? encodeCursor([last.createdAt.toISOString(), last.id]) : null };
}
