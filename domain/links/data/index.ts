export * from './types.js';
export * from './timezone.js';
export * from './codes.js';
export * from './schemas.js';
export * from './files.js';
export * from './smart-url-values.js';
