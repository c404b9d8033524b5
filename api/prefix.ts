/** Where the API's routes live; the console, the docs and the error responses name it. */
export const API_PREFIX = '/api/v1';
