import { adminApiHandler } from '../_routers';

export const dynamic = 'force-dynamic';

export {
  adminApiHandler as DELETE,
  adminApiHandler as GET,
  adminApiHandler as HEAD,
  adminApiHandler as OPTIONS,
  adminApiHandler as PATCH,
  adminApiHandler as POST,
  adminApiHandler as PUT,
};
