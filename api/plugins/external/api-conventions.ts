/**
 * What holds for every route of the API, as the OpenAPI document's description says it (its
 * `info.description`): the small rules that were once decisions of their own (0013–0016, 0028,
 * 0035–0037, 0040, 0042, 0097, 0104), kept where a client reads them.
 */
export const API_DESCRIPTION = `Dynamic short links with styled QR codes, templates, folders, cafe menus, scan analytics and bulk generation. Authenticate with \`Authorization: Basic <API_KEY>\` (the raw key, not base64).

## Conventions

**Credentials.** A machine sends its API key as \`Authorization: Basic <API_KEY>\`; the console signs a person in with \`POST /api/v1/sessions\` and sends its session cookie. Every route takes either, with the same checks behind both. A key is \`key-\` and 32 base62 characters (about 190 bits), shown once when it is made; the server keeps only its SHA-256 and its first 10 characters (\`prefix\`, to tell keys apart in a list). \`last_used_at\` is written at most once a minute per key, off the request's path.

**Authentication comes first.** It runs before the body is parsed or validated, so a caller without valid credentials gets 401 whatever it sends: no, malformed, unknown, revoked or expired key (expiry is checked on every request, not only by the sweep that marks expired keys inactive), or a plan without the feature. A missing scope is 403.

**Ids in paths.** An id that is not a UUID is a 404 "<Thing> not found", the same answer as an id that does not exist or belongs to another account.

**Errors name their fields.** A 400 \`validation_failed\` lists each problem at its path, in dots and \`[i]\` (\`data.rules[2].timeFrom\`); an unknown member is reported at its own path (\`qrOptions.dotsOptions.foo\`, "Unknown field").

**Bodies.** JSON routes take JSON only (\`text/plain\` and the rest are 415); multipart only where files are uploaded. A body over \`BODY_LIMIT_BYTES\` (1 MiB unless the operator sets it) is 413.

**Paths.** A trailing slash is ignored (\`/folders\` is \`/folders/\`).

**Request ids.** \`X-Request-Id\` is taken from the request or made, logged with every line of the request, and returned on the answer.

**This document** is generated from the routes' own schemas, so it cannot drift from what they accept; it is served without credentials at \`/api/v1/docs/json\`, and read at \`/api/v1/docs\`.

**Slugs.** A generated slug is 7 random base62 characters (a cryptographic generator; redrawn on the rare collision). A custom slug is letters, digits, \`-\` and \`_\`, 1 to 64 characters, unique across every account (taken is a 409 at \`linkConfigurations.customUrl\`), and none of the words the redirect serves itself, such as \`preview\`.

**A link's status**, first match wins: \`paused\`; \`scheduled\` before its window; \`expired\` after it; \`limit_reached\` when its human scans reach \`scanLimit\` (bots never count); else \`active\`. The \`status\` filter of \`GET /links\` uses the same rule.`;
