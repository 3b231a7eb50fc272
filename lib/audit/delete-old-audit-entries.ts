import { inArray, lt } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { auditEntries } from '@/db/schema';

/**
 * Retention: deletes up to `limit` entries older than `before` (oldest first, through
 * `audit_entries_created_idx`) and returns how many went; call again until it returns less than
 * `limit`. The retention job computes `before` from AUDIT_RETENTION_DAYS.
 */
export async function deleteOldAuditEntries(db: Db, { before, limit }: { before: Date; limit: number }): Promise<number> {
  const doomed = db
    .select({ id: auditEntries.id })
    .from(auditEntries)
    .where(lt(auditEntries.createdAt, before))
    .orderBy(auditEntries.createdAt)
    .limit(limit);
  const deleted = await db.delete(auditEntries).where(inArray(auditEntries.id, doomed)).returning({ id: auditEntries.id });
  return deleted.length;
}
