import { CODES } from '@/contracts/codes';

/** The code catalogue as a Markdown table (README and OpenAPI description share it). */
export function codesMarkdownTable(): string {
  const rows = Object.entries(CODES)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([code, { http, description }]) => `| ${code} | ${http} | ${description} |`);
  return ['| status_code | HTTP | Meaning |', '|---|---|---|', ...rows].join('\n');
}
