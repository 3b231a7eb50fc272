/**
 * bench:api case (a), the ceiling: the least a server can do for `PATCH /api/v1/chats/{chat_id}`
 * with `{"tags": [...]}` on this machine. node:http and postgres.js (which prepares its statements)
 * do the same token lookup under the same token policy and the same UPDATE as the real route, and
 * answer a small JSON. No framework, no validation library, no ORM, no transaction, no re-read of
 * the chat.
 *
 * Asked with the header `x-bench-answer: chat`, case (j): the same bare server answering what the
 * contract asks of this PATCH, the whole chat (team, asset, customer, assignee, latest messages), in
 * the app's envelope (the code's own description). Its UPDATE is the app's own tags-only statement
 * (the text drizzle builds for it, run here through postgres.js) and its answer the app's mapping
 * of that row (toChatView): the same answer body as `npm start` gives (bench/api.ts checks it).
 * Still no framework, schema validation, rate limits, request log, trace ID, metrics or error
 * mapping: (d) against (j) is what our pipeline adds. (j) is how fast any server of this contract
 * can be on this stack.
 *
 * The token policy is the app's (lib/bot-auth/authenticate-token.ts, token-cache.ts): a token
 * checked against the database is remembered TOKEN_CACHE_SECONDS (10 by default, the app's default
 * and the same variable) with its own expiry checked on every use; 0 looks it up on every call.
 * Only valid tokens of enabled VAs are kept. (No revocation listener: nothing revokes tokens here.)
 *
 * Env: PORT, DATABASE_URL, DATABASE_POOL_SIZE (default 10, as the app), TOKEN_CACHE_SECONDS (default 10, as the app).
 * Listens on 127.0.0.1 only.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import postgres from 'postgres';

const port = Number(process.env.PORT ?? 0);
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const sql = postgres(url, { max: Number(process.env.DATABASE_POOL_SIZE ?? 10), onnotice: () => {} });

const PATH = /^\/api\/v1\/chats\/([^/]+)\/?$/;
const chatAnswer = await chatStatement();
const { CODES } = await import('@/contracts/codes');

type Auth = { account_id: number; user_id: number; login_id: string };
/** The app's token cache: sha256 of the token → the VA, its expiry, and until when the entry holds. */
const TOKEN_TTL_MS = Number(process.env.TOKEN_CACHE_SECONDS ?? 10) * 1000;
const tokens = new Map<string, { auth: Auth; expiresAt: number; until: number }>();

/** The app's tags-only update with its chat view (SQL text and parameter order, built once), and its mapping. */
async function chatStatement() {
  const [{ drizzle }, schema, { tagsOnlyStatement }, { toChatView }] = await Promise.all([
    import('drizzle-orm/postgres-js'),
    import('@/db/schema'),
    import('@/lib/chats/update-chat'),
    import('@/lib/chats/chat-view'),
  ]);
  // Its own client, never connected: drizzle only builds the text here (and it would change how
  // this server's client parses timestamps).
  const statement = tagsOnlyStatement(drizzle(postgres(url as string, { max: 1 }), { schema }) as never);
  return { ...statement, toChatView };
}

function reply(res: http.ServerResponse, status: number, code: number, response: unknown) {
  const description = (CODES as Record<number, { description: string }>)[code]?.description ?? 'error';
  const body = JSON.stringify({ status_code: code, description, response });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function patchChat(req: http.IncomingMessage, res: http.ServerResponse, chatId: string) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let body: { tags?: unknown };
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return reply(res, 400, 2006, null);
  }
  const tags = body.tags;
  if (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string')) return reply(res, 400, 2000, null);

  const token = req.headers.access_token;
  const teamId = Number(req.headers.team_id);
  if (typeof token !== 'string' || !Number.isInteger(teamId)) return reply(res, 400, 2002, null);
  const hash = createHash('sha256').update(token).digest('hex');
  let auth: Auth;
  const cached = tokens.get(hash);
  const now = Date.now();
  if (cached && cached.until > now && cached.expiresAt > now) auth = cached.auth;
  else {
    if (cached) tokens.delete(hash);
    const [row] = await sql`
      select t.account_id, t.user_id, t.expires_at, u.login_id, u.enabled
      from access_tokens t join users u on u.id = t.user_id
      where t.token_hash = ${hash}`;
    if (!row?.enabled) return reply(res, 400, 2003, null);
    const expiresAt = (row.expires_at as Date).getTime();
    if (expiresAt <= Date.now()) return reply(res, 401, 2004, null);
    auth = { account_id: row.account_id, user_id: row.user_id, login_id: row.login_id };
    if (TOKEN_TTL_MS > 0) tokens.set(hash, { auth, expiresAt, until: Date.now() + TOKEN_TTL_MS });
  }

  if (req.headers['x-bench-answer'] === 'chat') {
    const params = chatAnswer.params({
      tags: [...new Set(tags as string[])],
      now: new Date(),
      chatId,
      accountId: auth.account_id,
      teamId,
      actorUserId: auth.user_id,
    });
    // One unnamed column (drizzle reads its selections by position): the chat view as JSON.
    const [row] = await sql.unsafe(chatAnswer.sql, params as never[], { prepare: true }).values();
    if (!row) return reply(res, 404, 2031, null);
    return reply(res, 200, 4304, chatAnswer.toChatView(row[0]));
  }
  const [chat] = await sql`
    update chats set tags = ${[...new Set(tags as string[])]}::text[], updated_at = now()
    where id = ${chatId} and account_id = ${auth.account_id} and team_id = ${teamId}
    returning id, tags, updated_at`;
  if (!chat) return reply(res, 404, 2031, null);
  reply(res, 200, 4304, { chat_id: chat.id, tag: chat.tags, updated_at: (chat.updated_at as Date).toISOString() });
}

const server = http.createServer((req, res) => {
  const m = req.method === 'PATCH' ? PATH.exec(req.url ?? '') : null;
  if (!m) {
    if (req.url === '/health') return reply(res, 200, 0, 'ok');
    return reply(res, 404, 2011, null);
  }
  patchChat(req, res, decodeURIComponent(m[1])).catch((err) => {
    console.error(err);
    if (!res.headersSent) reply(res, 500, 2007, null);
  });
});
server.keepAliveTimeout = 65_000;

server.listen(port, '127.0.0.1', () => {
  const addr = server.address();
  // The parent reads the chosen port from this line.
  console.log(`baseline listening ${typeof addr === 'object' && addr ? addr.port : port}`);
});

const stop = () => {
  server.close();
  sql.end({ timeout: 2 }).finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
