export * from './codes.js';
export * from './errors.js';
