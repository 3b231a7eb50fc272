import { agentApiHandler } from '../_routers';

export const dynamic = 'force-dynamic';

export {
  agentApiHandler as DELETE,
  agentApiHandler as GET,
  agentApiHandler as HEAD,
  agentApiHandler as OPTIONS,
  agentApiHandler as PATCH,
  agentApiHandler as POST,
  agentApiHandler as PUT,
};
