/**
 * `npm run check:migrations` (run by CI): the migrations added since the previous release must be
 * compatible with that release's code, which still serves while they run in a rolling upgrade
 * (ARCHITECTURE.md, "Upgrades without a stop"). Refused in a new migration, when it touches what the
 * previous release's schema (db/schema) names: dropping or renaming a table or column, changing a
 * column's type, making a column NOT NULL, adding a NOT NULL column without a default. A migration
 * that does so on purpose, as the contract step a release after the expand step, says so with a
 * line `-- contract-step: <why the previous release no longer reads it>`. Migrations the previous
 * release already had must not change at all.
 *
 * The previous release is the latest `v*` tag reachable from HEAD; without one, the merge base of
 * HEAD and `main` (HEAD's parent when HEAD is main). `MIGRATION_BASE=<git ref>` overrides both.
 */
import { execFileSync } from 'node:child_process';

const MIGRATIONS = 'db/migrations';
const MARKER = /^--[ \t]*contract-step:[ \t]*(\S[^\n]*)$/m;

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const tryGit = (...args: string[]) => {
  try {
    return git(...args);
  } catch {
    return null;
  }
};

export type Finding = { statement: string; why: string };

/** What the previous release's schema names: its tables and their columns, as written in db/schema. */
export type ReleaseSchema = { mentions: (name: string) => boolean };

export function releaseSchemaOf(schemaSource: string): ReleaseSchema {
  return { mentions: (name) => schemaSource.includes(`'${name}'`) || schemaSource.includes(`"${name}"`) };
}

const ident = '"?([A-Za-z_][A-Za-z0-9_]*)"?';
const RULES: { pattern: RegExp; why: (m: RegExpMatchArray) => string; names: (m: RegExpMatchArray) => string[] }[] = [
  {
    pattern: new RegExp(String.raw`\bDROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:${ident}\.)?${ident}`, 'i'),
    why: (m) => `drops table ${m[2]}`,
    names: (m) => [m[2]],
  },
  {
    pattern: new RegExp(String.raw`\bALTER\s+TABLE\s+(?:ONLY\s+)?(?:IF\s+EXISTS\s+)?(?:${ident}\.)?${ident}\s+RENAME\s+TO\s+${ident}`, 'i'),
    why: (m) => `renames table ${m[2]}`,
    names: (m) => [m[2]],
  },
  {
    pattern: new RegExp(String.raw`\bDROP\s+COLUMN\s+(?:IF\s+EXISTS\s+)?${ident}`, 'i'),
    why: (m) => `drops column ${m[1]}`,
    names: (m) => [m[1]],
  },
  {
    pattern: new RegExp(String.raw`\bRENAME\s+(?:COLUMN\s+)?${ident}\s+TO\s+${ident}`, 'i'),
    why: (m) => `renames column ${m[1]}`,
    names: (m) => [m[1]],
  },
  {
    pattern: new RegExp(String.raw`\bALTER\s+COLUMN\s+${ident}\s+(?:SET\s+DATA\s+)?TYPE\b`, 'i'),
    why: (m) => `changes the type of column ${m[1]}`,
    names: (m) => [m[1]],
  },
  {
    pattern: new RegExp(String.raw`\bALTER\s+COLUMN\s+${ident}\s+SET\s+NOT\s+NULL`, 'i'),
    why: (m) => `makes column ${m[1]} NOT NULL (the previous release may write null)`,
    names: (m) => [m[1]],
  },
  {
    pattern: new RegExp(
      String.raw`\bALTER\s+TABLE\s+(?:ONLY\s+)?(?:${ident}\.)?${ident}\s+ADD\s+COLUMN\s+(?:IF\s+NOT\s+EXISTS\s+)?${ident}\s+[^;]*\bNOT\s+NULL\b`,
      'i',
    ),
    why: (m) => `adds NOT NULL column ${m[3]} to ${m[2]} (the previous release's inserts do not set it)`,
    names: (m) => [m[2]],
  },
];

/** The statements of one migration that the previous release's code would not survive, unless marked as the contract step. */
export function findIncompatible(sql: string, previous: ReleaseSchema): Finding[] {
  const findings: Finding[] = [];
  const statements = sql
    .split(/--> statement-breakpoint|;\s*(?:\n|$)/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
  for (const statement of statements) {
    for (const rule of RULES) {
      const m = statement.match(rule.pattern);
      if (!m) continue;
      // A NOT NULL column added with a default is filled for the previous release's inserts.
      if (rule.why(m).startsWith('adds NOT NULL') && /\bDEFAULT\b/i.test(statement)) continue;
      if (!rule.names(m).some((name) => previous.mentions(name))) continue;
      findings.push({ statement: statement.replace(/\s+/g, ' ').slice(0, 200), why: rule.why(m) });
    }
  }
  return findings;
}

/** Whether a migration says it is a contract step, with its reason. */
export function contractStep(sql: string): string | null {
  return MARKER.exec(sql)?.[1] ?? null;
}

function previousRelease(): { ref: string; label: string } {
  if (process.env.MIGRATION_BASE) return { ref: process.env.MIGRATION_BASE, label: `MIGRATION_BASE=${process.env.MIGRATION_BASE}` };
  const tag = tryGit('describe', '--tags', '--abbrev=0', '--match', 'v*', 'HEAD');
  if (tag) return { ref: tag, label: `the latest release tag ${tag}` };
  const head = git('rev-parse', 'HEAD');
  const base = tryGit('merge-base', 'HEAD', 'main') ?? tryGit('merge-base', 'HEAD', 'origin/main');
  if (base && base !== head) return { ref: base, label: `the merge base with main (${base.slice(0, 12)}), no release tag yet` };
  const parent = tryGit('rev-parse', 'HEAD~1');
  if (parent) return { ref: parent, label: `HEAD's parent (${parent.slice(0, 12)}), no release tag yet` };
  return { ref: head, label: 'HEAD (a repository of one commit)' };
}

function main() {
  const { ref, label } = previousRelease();
  const listAt = (at: string) =>
    (tryGit('ls-tree', '--name-only', `${at}:${MIGRATIONS}`) ?? '').split('\n').filter((f) => f.endsWith('.sql'));
  const before = new Set(listAt(ref));
  const now = listAt('HEAD');
  const schemaFiles = (tryGit('ls-tree', '--name-only', `${ref}:db/schema`) ?? '').split('\n').filter((f) => f.endsWith('.ts'));
  const previous = releaseSchemaOf(schemaFiles.map((f) => git('show', `${ref}:db/schema/${f}`)).join('\n'));
  const problems: string[] = [];
  for (const file of before) {
    if (!now.includes(file)) problems.push(`${file}: removed, but the previous release ran it`);
    else if (tryGit('diff', '--quiet', ref, 'HEAD', '--', `${MIGRATIONS}/${file}`) === null) {
      problems.push(`${file}: changed, but the previous release ran it as it was (add a new migration instead)`);
    }
  }
  const added = now.filter((f) => !before.has(f));
  for (const file of added) {
    const sql = git('show', `HEAD:${MIGRATIONS}/${file}`);
    const findings = findIncompatible(sql, previous);
    if (findings.length === 0) continue;
    const reason = contractStep(sql);
    if (reason) {
      console.log(`${file}: contract step (${reason}): ${findings.map((f) => f.why).join('; ')}`);
      continue;
    }
    for (const f of findings) problems.push(`${file}: ${f.why}, which the previous release reads: ${f.statement}`);
  }
  console.log(`Migrations checked against ${label}: ${added.length} new (${added.join(', ') || 'none'}).`);
  if (problems.length) {
    for (const p of problems) console.error(p);
    console.error(
      'A migration must leave the schema usable by the previous release (expand now, contract a release later: ARCHITECTURE.md). ' +
        'If this is the contract step, add a line "-- contract-step: <why the previous release no longer reads it>" to the migration.',
    );
    process.exit(1);
  }
}

if (process.argv[1]?.endsWith('check-migrations.ts')) main();
