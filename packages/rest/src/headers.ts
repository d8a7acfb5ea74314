/** Default content type of REST response bodies (spec §3.1, v1.0.1); a client that uses `application/json` gets that back. */
export const REST_CONTENT_TYPE = 'application/a2a+json';
