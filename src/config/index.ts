export * from './schema.ts';
export * from './loader.ts';
