export { mountApiDocs } from './api-docs.js';
export { clearCookie, isSecureRequest, LOGIN_CSRF_COOKIE, readCookie, SESSION_COOKIE, setCookie } from './session-cookie.js';
export { DEFAULT_MAX_JSON_DEPTH, JsonTooDeepError, jsonTextDeeperThan, refuseDeepJson } from './json-depth.js';
