/**
 * ua-parser-js 1.x ships no type declarations (the AGPL 2.x does; we stay on the MIT 1.x), so
 * this declares the part we call.
 */
declare module 'ua-parser-js' {
  interface UAParserResult {
    browser: { name?: string; version?: string };
    os: { name?: string; version?: string };
    device: { type?: string; vendor?: string; model?: string };
  }
  class UAParser {
    constructor(userAgent?: string);
    getResult(): UAParserResult;
  }
  export { UAParser, type UAParserResult };
}
