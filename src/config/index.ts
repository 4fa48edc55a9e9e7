export * from './loader.ts';
export * from './schema.ts';
