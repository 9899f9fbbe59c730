export { mountApiDocs } from './api-docs.js';
export { clearCookie, isSecureRequest, LOGIN_CSRF_COOKIE, readCookie, SESSION_COOKIE, setCookie } from './session-cookie.js';
export { DEFAULT_MAX_JSON_DEPTH, JsonTooDeepError, jsonTextDeeperThan, refuseDeepJson } from './json-depth.js';
export { RATE_LIMIT_HEADERS, TOO_MANY_REQUESTS_HEADERS, withRateLimitHeaders } from './rate-limit-docs.js';
