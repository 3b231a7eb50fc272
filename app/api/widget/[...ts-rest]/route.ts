import { widgetApiHandler } from '../_routers';

export const dynamic = 'force-dynamic';

export {
  widgetApiHandler as DELETE,
  widgetApiHandler as GET,
  widgetApiHandler as HEAD,
  widgetApiHandler as OPTIONS,
  widgetApiHandler as PATCH,
  widgetApiHandler as POST,
  widgetApiHandler as PUT,
};
