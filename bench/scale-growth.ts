/**
 * How each read path of bench:scale grows with the data set: every full run of bench:scale keeps its
 * timings in docs/benchmarks/scale/<shape>-<chats>.json; from all the runs of one shape this draws
 * docs/benchmarks/scale/growth-<shape>.svg (single-request p99 against chats, both axes logarithmic,
 * one panel per group of paths with its target) and the table beside it in BENCHMARKS.md.
 */
import fs from 'node:fs';
import path from 'node:path';

export type GrowthPoint = { label: string; group: string; p99: number };
export type GrowthRun = { chats: number; shape: string; at: string; machine: string; load: string; points: GrowthPoint[] };

const DIR = path.join(process.cwd(), 'docs', 'benchmarks', 'scale');
const TARGETS: Record<string, number> = { bot: 20, admin: 50, agent: 50 };
const SIZES = [10_000, 100_000, 1_000_000, 10_000_000];
const COLOURS = [
  '#1f5fa8',
  '#c2410c',
  '#15803d',
  '#7e22ce',
  '#b91c1c',
  '#0f766e',
  '#a16207',
  '#be185d',
  '#4d7c0f',
  '#334155',
  '#0369a1',
  '#9a3412',
  '#6d28d9',
  '#047857',
];

export function saveRun(run: GrowthRun): string {
  fs.mkdirSync(DIR, { recursive: true });
  const file = path.join(DIR, `${run.shape}-${run.chats}.json`);
  fs.writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`);
  return file;
}

export function loadRuns(shape: string): GrowthRun[] {
  if (!fs.existsSync(DIR)) return [];
  return fs
    .readdirSync(DIR)
    .filter((f) => f.startsWith(`${shape}-`) && f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')) as GrowthRun)
    .sort((a, b) => a.chats - b.chats);
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
export const size = (n: number) => (n >= 1e6 ? `${n / 1e6} M` : `${n / 1e3} k`);

/** The chart: one panel per group, x = chats (10 k to 10 M), y = p99 ms, the group's target dashed. */
export function growthSvg(runs: GrowthRun[]): string {
  const groups = [...new Set(runs.flatMap((r) => r.points.map((p) => p.group)))];
  const W = 1000;
  const PH = 320;
  const left = 60;
  const plotW = 470;
  const top = 40;
  const plotH = PH - 90;
  const maxMs = Math.max(100, ...runs.flatMap((r) => r.points.map((p) => p.p99)));
  const yMax = 10 ** Math.ceil(Math.log10(maxMs));
  const x = (chats: number) => left + ((Math.log10(chats) - 4) / 3) * plotW;
  const y = (ms: number) => top + plotH - (Math.log10(Math.max(ms, 0.5)) / Math.log10(yMax)) * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${PH * groups.length}" viewBox="0 0 ${W} ${PH * groups.length}" font-family="sans-serif" font-size="12" role="img" aria-labelledby="title">`,
    `<title id="title">Single-request p99 of each read path by chats in the tenant (${runs.map((r) => size(r.chats)).join(', ')}), one panel per group with its target; the table beside it in BENCHMARKS.md gives the figures</title>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
  ];
  groups.forEach((group, gi) => {
    out.push(`<g transform="translate(0 ${gi * PH})">`);
    out.push(
      `<text x="${left}" y="22" font-size="15" font-weight="bold">${esc(group)} reads: single-request p99 (ms) by chats in the tenant, target ${TARGETS[group] ?? '–'} ms</text>`,
    );
    for (const s of SIZES) {
      out.push(`<line x1="${x(s)}" y1="${top}" x2="${x(s)}" y2="${top + plotH}" stroke="#ddd"/>`);
      out.push(`<text x="${x(s)}" y="${top + plotH + 18}" text-anchor="middle">${size(s)}</text>`);
    }
    for (let v = 1; v <= yMax; v *= 10) {
      for (const m of [1, 2, 5]) {
        const ms = v * m;
        if (ms > yMax) continue;
        out.push(`<line x1="${left}" y1="${y(ms)}" x2="${left + plotW}" y2="${y(ms)}" stroke="${m === 1 ? '#ccc' : '#eee'}"/>`);
        out.push(`<text x="${left - 6}" y="${y(ms) + 4}" text-anchor="end">${ms}</text>`);
      }
    }
    const target = TARGETS[group];
    if (target) {
      out.push(
        `<line x1="${left}" y1="${y(target)}" x2="${left + plotW}" y2="${y(target)}" stroke="#b91c1c" stroke-dasharray="6 4" stroke-width="1.5"/>`,
      );
    }
    out.push(`<text x="${left + plotW / 2}" y="${top + plotH + 36}" text-anchor="middle">chats in the tenant</text>`);
    const labels = [...new Set(runs.flatMap((r) => r.points.filter((p) => p.group === group).map((p) => p.label)))];
    labels.forEach((label, li) => {
      const colour = COLOURS[li % COLOURS.length];
      const pts = runs
        .map((r) => ({ chats: r.chats, p: r.points.find((p) => p.group === group && p.label === label) }))
        .filter((v): v is { chats: number; p: GrowthPoint } => v.p !== undefined);
      if (pts.length > 1) {
        out.push(
          `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${pts.map((v) => `${x(v.chats).toFixed(1)},${y(v.p.p99).toFixed(1)}`).join(' ')}"/>`,
        );
      }
      for (const v of pts) out.push(`<circle cx="${x(v.chats).toFixed(1)}" cy="${y(v.p.p99).toFixed(1)}" r="3" fill="${colour}"/>`);
      const ly = top + 4 + li * 16;
      out.push(`<rect x="${left + plotW + 30}" y="${ly - 9}" width="12" height="12" fill="${colour}"/>`);
      out.push(`<text x="${left + plotW + 48}" y="${ly + 1}">${esc(label)}</text>`);
    });
    out.push('</g>');
  });
  out.push('</svg>');
  return out.join('\n');
}

/** The Markdown table: one row per path, one column per size measured. */
export function growthTable(runs: GrowthRun[]): string {
  const labels = [...new Map(runs.flatMap((r) => r.points.map((p) => [`${p.group} ${p.label}`, p] as const))).keys()];
  const head = `| request (single p99 ms) | ${runs.map((r) => size(r.chats)).join(' | ')} |`;
  const rule = `|---|${runs.map(() => '---:').join('|')}|`;
  const rows = labels.map((l) => {
    const cells = runs.map((r) => {
      const p = r.points.find((q) => `${q.group} ${q.label}` === l);
      return p ? String(p.p99) : '–';
    });
    return `| ${l} | ${cells.join(' | ')} |`;
  });
  return [head, rule, ...rows].join('\n');
}

/**
 * Writes the chart of `shape` and answers the section that shows it: in BENCHMARKS.md, or with
 * `beside` in docs/benchmarks/scale.md (the image then addressed from there).
 */
export function writeGrowth(shape: string, mark: string, beside = false): string {
  const runs = loadRuns(shape);
  const svgName = `growth-${shape}.svg`;
  fs.writeFileSync(path.join(DIR, svgName), `${growthSvg(runs)}\n`);
  const missing = SIZES.filter((s) => !runs.some((r) => r.chats === s));
  return [
    `<!-- ${mark}-growth:start -->`,
    `## Scale: how each read path grows with the tenant (${shape} data)`,
    '',
    `Each column is the latest full \`bench:scale\` run at that size (\`BENCH_SCALE_CHATS=<n>${shape === 'uniform' ? '' : ` BENCH_SCALE_SHAPE=${shape}`} npm run bench:scale\`), single-request p99; the timings of each run are in \`docs/benchmarks/scale/${shape}-<chats>.json\` with its machine and load. The chart is drawn by the bench from those files.${missing.length ? ` Not measured yet: ${missing.map(size).join(', ')}.` : ''}`,
    '',
    ...runs.map((r) => `- ${size(r.chats)}: ${r.at}, ${r.machine}, load ${r.load}.`),
    '',
    `![p99 of each read path by chats in the tenant](${beside ? '' : 'docs/benchmarks/'}scale/${svgName})`,
    '',
    growthTable(runs),
    `<!-- ${mark}-growth:end -->`,
  ].join('\n');
}
