import fs from 'node:fs';

/**
 * Replaces the section between `start` and `end` markers in a Markdown file, or appends it; every
 * other section (each benchmark writes its own) is left as it was.
 */
export function writeSection(file: string, section: string, markers: { start: string; end: string }) {
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const a = current.indexOf(markers.start);
  const b = current.indexOf(markers.end);
  const next =
    a !== -1 && b > a
      ? current.slice(0, a) + section + current.slice(b + markers.end.length)
      : `${current.replace(/\n*$/, '\n\n')}${section}\n`;
  fs.writeFileSync(file, next);
}
