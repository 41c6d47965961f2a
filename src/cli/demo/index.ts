// The bundled demo site that `npm start` serves and crawls: the site as data,
// its server, and what a correct crawl of it requests.

export { createDemoSite, HTML_UTF8, type DemoResource, type DemoSite } from './site.js';
export { startDemoServer, type DemoServer } from './server.js';
export {
  EXPECTED_REQUESTS,
  NEVER_REQUESTED,
  RECORDED_NEVER_FETCHED,
  checkRequestLog,
  type ExpectedRequest,
  type RequestLogCheck,
} from './expected-requests.js';
export { requestKey, routeKey } from './request-target.js';
