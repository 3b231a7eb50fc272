import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contractStep, findIncompatible, releaseSchemaOf } from './check-migrations';

// The previous release's schema, as db/schema writes it.
const previous = releaseSchemaOf(`
export const chats = pgTable('chats', { id: uuid('id'), tags: text('tags'), outcome: text('outcome') });
export const notes = pgTable('notes', { id: serial('id') });
`);
const whys = (sql: string) => findIncompatible(sql, previous).map((f) => f.why);

describe('check:migrations', () => {
  it('refuses what the previous release reads: drops, renames, type changes, NOT NULL', () => {
    assert.deepEqual(whys('DROP TABLE "notes";'), ['drops table notes']);
    assert.deepEqual(whys('ALTER TABLE "chats" DROP COLUMN "outcome";'), ['drops column outcome']);
    assert.deepEqual(whys('ALTER TABLE "chats" RENAME COLUMN "tags" TO "labels";'), ['renames column tags']);
    assert.deepEqual(whys('ALTER TABLE "notes" RENAME TO "memos";'), ['renames table notes']);
    assert.deepEqual(whys('ALTER TABLE "chats" ALTER COLUMN "outcome" SET DATA TYPE varchar(50);'), ['changes the type of column outcome']);
    assert.deepEqual(whys('ALTER TABLE "chats" ALTER COLUMN "outcome" SET NOT NULL;'), [
      'makes column outcome NOT NULL (the previous release may write null)',
    ]);
    assert.deepEqual(whys('ALTER TABLE "chats" ADD COLUMN "priority" integer NOT NULL;'), [
      "adds NOT NULL column priority to chats (the previous release's inserts do not set it)",
    ]);
  });

  it('lets through what the previous release survives: new tables and columns, defaults, what it never read', () => {
    assert.deepEqual(whys('CREATE TABLE "memos" ("id" serial PRIMARY KEY NOT NULL);'), []);
    assert.deepEqual(whys('ALTER TABLE "chats" ADD COLUMN "priority" integer DEFAULT 0 NOT NULL;'), []);
    assert.deepEqual(
      whys('ALTER TABLE "chats" ADD COLUMN "note" text;--> statement-breakpoint\nCREATE INDEX "x" ON "chats" ("note");'),
      [],
    );
    // A column only this release added (the previous one never read it) may go.
    assert.deepEqual(whys('ALTER TABLE "chats" DROP COLUMN "scratch";'), []);
  });

  it('reads the contract-step marker with its reason', () => {
    assert.equal(
      contractStep('-- contract-step: v0.3.0 reads labels, not tags\nALTER TABLE "chats" DROP COLUMN "tags";'),
      'v0.3.0 reads labels, not tags',
    );
    assert.equal(contractStep('-- contract-step:\nALTER TABLE "chats" DROP COLUMN "tags";'), null);
    assert.equal(contractStep('ALTER TABLE "chats" DROP COLUMN "tags";'), null);
  });
});
