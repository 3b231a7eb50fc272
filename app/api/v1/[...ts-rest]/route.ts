import { botApiHandler } from '../_routers';

export const dynamic = 'force-dynamic';

export {
  botApiHandler as DELETE,
  botApiHandler as GET,
  botApiHandler as HEAD,
  botApiHandler as OPTIONS,
  botApiHandler as PATCH,
  botApiHandler as POST,
  botApiHandler as PUT,
};
