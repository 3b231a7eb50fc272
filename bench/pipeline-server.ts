/**
 * bench:api cases (e) and (f): the same PATCH /api/v1/chats/{chat_id} through two request
 * pipelines on the same node:http server, process and compilation (tsx), so that the pipeline is
 * the only difference:
 *
 *   PIPELINE=tsrest  ts-rest's own fetch handler: `requestMiddleware` for admission (size, content
 *                    type) and the guard (token, rate limit), `errorHandler` for the envelope,
 *                    typed middleware context (`tsr.routerWithMiddleware`) instead of the ambient
 *                    getters, `responseHandlers` for trxid and Rate-Limit-*; node:http -> Fetch
 *                    Request -> Response -> node:http, as any Node host of it must do.
 *   PIPELINE=ours    the service's pipeline (platform/http/create-api-handler.ts) through its node:http
 *                    entry (platform/http/node-entry.ts), with the real bot API router and guard.
 *
 * Both call the same domain function (`updateChat`) and answer the same envelope. Env: PORT,
 * DATABASE_URL, DATABASE_POOL_SIZE, PIPELINE. Listens on 127.0.0.1; prints `pipeline listening <port>`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchRequestHandler, TsRestResponse, tsr } from '@ts-rest/serverless/fetch';
import { botApiHandler } from '@/app/api/v1/_routers';
import { botContract } from '@/contracts/bot';
import { closeDb, getDb } from '@/db/client';
import { authenticateToken } from '@/lib/bot-auth/authenticate-token';
import { updateChat } from '@/lib/chats/update-chat';
import { ApiError } from '@/platform/errors';
import { serveNode } from '@/platform/http/node-entry';
import { consumeRateLimit, type RateLimitState } from '@/platform/http/rate-limit';
import { bodyLimits, checkDeclaredLength, collectBody } from '@/platform/http/read-body';
import type { BotAuth } from '@/platform/http/request-context';
import { errorAnswer, ok, toApiError } from '@/platform/http/respond';
import { newTraceId } from '@/platform/util/ids';

const pipeline = process.env.PIPELINE ?? 'ours';
if (pipeline !== 'ours' && pipeline !== 'tsrest') throw new Error(`PIPELINE must be ours or tsrest, not ${pipeline}`);

// ---------------------------------------------------------------------------------------------
// ts-rest's own handler, configured the way its documentation describes.

type Extension = { trxid: string; bot: BotAuth; rateLimit: RateLimitState };
const contract = { updateChat: botContract.chats.updateChat };

const router = tsr.routerWithMiddleware(contract)<Extension>({
  updateChat: async ({ params, headers, body }, { request }) => {
    const { accountId, userId } = request.bot;
    return ok(
      4304,
      await updateChat(await getDb(), { accountId, chatId: params.chat_id, teamId: headers.team_id, patch: body, actorUserId: userId }),
    );
  },
});

const toTsRest = (err: unknown) => {
  const answer = errorAnswer(toApiError(err));
  return new TsRestResponse(answer.body as string, { status: answer.status, headers: answer.headers.raw as Record<string, string> });
};

async function viaTsRest(request: Request): Promise<Response> {
  return fetchRequestHandler({
    contract,
    router,
    request,
    options: {
      responseValidation: false,
      requestMiddleware: [
        async (req) => {
          const r = req as typeof req & Extension;
          r.trxid = newTraceId();
          const limits = bodyLimits();
          checkDeclaredLength(req.headers.get('content-length'), limits);
          if (Number(req.headers.get('content-length') ?? 0) > 0 && !/\bjson\b/i.test(req.headers.get('content-type') ?? '')) {
            throw new ApiError(2009);
          }
          r.bot = await authenticateToken(await getDb(), { token: req.headers.get('access_token') });
          r.rateLimit = await consumeRateLimit(`account:${r.bot.accountId}`);
        },
      ],
      errorHandler: (err) => toTsRest(err),
      responseHandlers: [
        (response, req) => {
          const r = req as typeof req & Partial<Extension>;
          response.headers.set('trxid', r.trxid ?? newTraceId());
          if (r.rateLimit) {
            response.headers.set('Rate-Limit-Limit', String(r.rateLimit.limit));
            response.headers.set('Rate-Limit-Remaining', String(r.rateLimit.remaining));
            response.headers.set('Rate-Limit-Reset', String(r.rateLimit.resetSeconds));
          }
        },
      ],
    },
  });
}

async function serveTsRest(req: http.IncomingMessage, res: http.ServerResponse) {
  const body = await collectBody(req, bodyLimits(), () => req.pause());
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, {
    method: req.method,
    headers,
    body: body && req.method !== 'GET' && req.method !== 'HEAD' ? (body as Uint8Array<ArrayBuffer>) : undefined,
  });
  const response = await viaTsRest(request);
  const out: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    out[k] = v;
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  out['content-length'] = String(bytes.byteLength);
  res.writeHead(response.status, out);
  res.end(bytes);
}

// ---------------------------------------------------------------------------------------------

const server = http.createServer((req, res) => {
  if (req.url === '/health') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
    return;
  }
  const run = pipeline === 'tsrest' ? serveTsRest(req, res) : serveNode(botApiHandler.core, req, res);
  run.catch((err) => {
    console.error(err);
    res.destroy();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`pipeline listening ${(server.address() as AddressInfo).port}`);
});

const stop = () => {
  server.close();
  closeDb().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
