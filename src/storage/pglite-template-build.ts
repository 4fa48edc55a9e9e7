/**
 * @module storage/pglite-template-build
 * Install-time step of `npm run build` (run by `npm install` / `npm ci` through `prepare`): writes the prepared
 * embedded database into `dist/` (storage/pglite-template.ts). A failure is reported and the build goes on: the
 * first start then creates the database itself, only more slowly.
 */
import { buildTemplate, defaultTemplateDir } from './pglite-template.ts';

const dir = defaultTemplateDir();
try {
  const t0 = Date.now();
  const r = await buildTemplate(dir);
  if (r === 'built')
    process.stderr.write(
      `zhujiu: prepared the embedded database for first starts in ${dir} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`,
    );
} catch (err) {
  process.stderr.write(
    `zhujiu: could not prepare the embedded database in ${dir} (${(err as Error).message}); ` +
      'a first start will create it instead (a few seconds slower)\n',
  );
}
