/**
 * The prepared embedded database (storage/pglite-template.ts): an empty folder is filled from the archive and
 * only the migrations newer than the archive run; an archive made by another PGlite version, or with migrations
 * this code lacks, is ignored; a damaged archive is a logged fallback that leaves nothing behind; a folder that
 * holds anything is never touched. The archives here are made from the test template (test/helpers/global-setup.ts)
 * as buildTemplate makes its own (the WAL emptied, packed without trailing zeros) rather than by buildTemplate,
 * which runs initdb (~6 s).
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unpackTar } from 'modern-tar';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrations } from '../../../migrations/index.ts';
import { migrateDown, migrateToLatest, migrationStatus, openDb } from '../../../src/storage/db.ts';
import { PGLITE_PG_MAJOR } from '../../../src/storage/pglite-settings.ts';
import {
  emptyWal,
  installedPgliteVersion,
  seedFromTemplate,
  TEMPLATE_ARCHIVE,
  TEMPLATE_META,
  type TemplateMeta,
} from '../../../src/storage/pglite-template.ts';
import { FULL_SIZE_KEY, packFolder } from '../../../src/storage/tar-unpack.ts';
import { startTemplateFill } from '../../../src/storage/template-fill.ts';

const names = Object.keys(migrations);
const last = names.at(-1) as string;

/** Log lines kept for assertions. */
function recorder() {
  const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  return {
    lines,
    info: (obj: Record<string, unknown>, msg: string) => lines.push({ level: 'info', obj, msg }),
    warn: (obj: Record<string, unknown>, msg: string) => lines.push({ level: 'warn', obj, msg }),
    error: (obj: Record<string, unknown>, msg: string) => lines.push({ level: 'error', obj, msg }),
  };
}

function countEntries(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    n += 1;
    if (e.isDirectory()) n += countEntries(join(dir, e.name));
  }
  return n;
}

let root: string;
/** A template folder whose archive holds every migration but the last one. */
let older: string;
let olderMeta: TemplateMeta;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'zhujiu-template-test-'));
  const folder = join(root, 'made', 'pg');
  cpSync(inject('pgliteTemplate'), folder, { recursive: true });
  const d = await openDb({ kind: 'pglite', dataDir: folder });
  await migrateDown(d.db);
  await emptyWal(d.db);
  await d.close();
  older = join(root, 'older');
  mkdirSync(older);
  writeFileSync(join(older, TEMPLATE_ARCHIVE), await packFolder(folder));
  olderMeta = {
    format: 1,
    pglite: installedPgliteVersion(),
    pgMajor: PGLITE_PG_MAJOR,
    migrations: names.slice(0, -1),
    entries: countEntries(folder),
    sourceHash: 'test',
  };
  writeFileSync(join(older, TEMPLATE_META), JSON.stringify(olderMeta));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A copy of the older template with its description changed (and, optionally, its archive replaced). */
function variant(name: string, meta: Partial<TemplateMeta>, archive?: Buffer): string {
  const dir = join(root, name);
  cpSync(older, dir, { recursive: true });
  writeFileSync(join(dir, TEMPLATE_META), JSON.stringify({ ...olderMeta, ...meta }));
  if (archive) writeFileSync(join(dir, TEMPLATE_ARCHIVE), archive);
  return dir;
}

describe('the prepared embedded database', () => {
  it('stores its emptied WAL segment as a few kilobytes and the size to restore', async () => {
    const entries = await unpackTar(readFileSync(join(older, TEMPLATE_ARCHIVE)));
    const wal = entries.filter((e) => /^pg_wal\/[0-9A-F]{24}$/u.test(e.header.name));
    expect(wal.map((e) => e.header.pax?.[FULL_SIZE_KEY])).toEqual([String(16 * 1024 * 1024)]);
    expect(wal[0]?.data?.length).toBeLessThan(64 * 1024);
  });

  it('fills a missing folder, and only the migrations newer than the archive run', async () => {
    const dataDir = join(root, 'first', 'pg');
    const log = recorder();
    const locked: boolean[] = [];
    const onLocked = (created: boolean) => void locked.push(created);
    const d = await openDb({ kind: 'pglite', dataDir }, { template: older, logger: log, onLocked });
    // Told once the folder is this process's, before the fill: the database is new.
    expect(locked).toEqual([true]);
    try {
      expect(log.lines.map((l) => l.msg)).toContain(
        'embedded database filled from the prepared one',
      );
      expect((await migrationStatus(d.db)).pending).toEqual([last]);
      const r = await migrateToLatest(d.db);
      expect(r.results?.map((x) => [x.migrationName, x.status])).toEqual([[last, 'Success']]);
      expect((await migrationStatus(d.db)).pending).toEqual([]);
    } finally {
      await d.close();
    }
    // Nothing is left beside the folder but the folder itself and its lock files.
    expect(readdirSync(join(root, 'first')).filter((f) => f.includes('unpacking'))).toEqual([]);
    const again = await openDb({ kind: 'pglite', dataDir }, { template: older, onLocked });
    await again.close();
    expect(locked).toEqual([true, false]);
  });

  it('takes the folder unpacked ahead of need (storage/template-fill) instead of unpacking again', async () => {
    const dataDir = join(root, 'early', 'pg');
    expect(await startTemplateFill(dataDir, join(older, TEMPLATE_ARCHIVE))).toBe(true);
    const [early] = readdirSync(join(root, 'early')).filter((f) => f.includes('unpacking'));
    expect(early).toBeDefined();
    // A mark only the folder unpacked ahead of need carries (a comment PostgreSQL ignores).
    const conf = join(root, 'early', early as string, 'postgresql.auto.conf');
    writeFileSync(conf, `${readFileSync(conf, 'utf8')}\n# unpacked ahead of need\n`);
    expect(await seedFromTemplate(dataDir, older, migrations)).toBe(true);
    expect(readFileSync(join(dataDir, 'postgresql.auto.conf'), 'utf8')).toContain(
      '# unpacked ahead of need',
    );
    expect(readdirSync(join(root, 'early')).filter((f) => f.includes('unpacking'))).toEqual([]);
    const d = await openDb({ kind: 'pglite', dataDir });
    try {
      expect((await migrationStatus(d.db)).pending).toEqual([last]);
    } finally {
      await d.close();
    }
  });

  it('fills an empty folder that exists', async () => {
    const dataDir = join(root, 'empty', 'pg');
    mkdirSync(dataDir, { recursive: true });
    expect(await seedFromTemplate(dataDir, older, migrations)).toBe(true);
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8').trim()).toBe(PGLITE_PG_MAJOR);
  });

  it('ignores an archive of another PGlite version or with migrations this code lacks', async () => {
    for (const [name, meta, why] of [
      ['other-pglite', { pglite: '0.0.1' }, 'prepared for PGlite 0.0.1'],
      ['other-major', { pgMajor: '17' }, 'prepared for PostgreSQL 17'],
      ['newer', { migrations: [...names, '9999_future'] }, '9999_future'],
    ] as const) {
      const dataDir = join(root, name, 'pg');
      const log = recorder();
      expect(await seedFromTemplate(dataDir, variant(`t-${name}`, meta), migrations, log)).toBe(
        false,
      );
      expect(existsSync(dataDir)).toBe(false);
      expect(log.lines).toHaveLength(1);
      expect(log.lines[0]?.msg).toContain(why);
    }
  });

  it('falls back, with a warning and nothing left behind, on a damaged archive', async () => {
    const whole = readFileSync(join(older, TEMPLATE_ARCHIVE));
    for (const [name, bytes] of [
      ['garbage', Buffer.from('not an archive at all')],
      ['truncated', whole.subarray(0, Math.floor(whole.length / 2))],
    ] as const) {
      const dataDir = join(root, name, 'pg');
      const log = recorder();
      expect(
        await seedFromTemplate(dataDir, variant(`t-${name}`, {}, bytes), migrations, log),
      ).toBe(false);
      expect(log.lines.map((l) => l.level)).toEqual(['warn']);
      expect(log.lines[0]?.msg).toContain('creating a new one instead');
      expect(readdirSync(join(root, name))).toEqual([]);
    }
  });

  it('refuses an archive that unpacks into fewer entries than it was made with', async () => {
    const dataDir = join(root, 'fewer', 'pg');
    const log = recorder();
    const t = variant('t-fewer', { entries: olderMeta.entries + 1 });
    expect(await seedFromTemplate(dataDir, t, migrations, log)).toBe(false);
    expect(log.lines[0]?.obj.err).toContain(`expected ${olderMeta.entries + 1}`);
    expect(readdirSync(join(root, 'fewer'))).toEqual([]);
  });

  it('never touches a folder that holds anything', async () => {
    const dataDir = join(root, 'used', 'pg');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'something'), 'x');
    expect(await seedFromTemplate(dataDir, older, migrations)).toBe(false);
    expect(readdirSync(dataDir)).toEqual(['something']);
  });

  it('does nothing without a prepared database', async () => {
    const dataDir = join(root, 'none', 'pg');
    const log = recorder();
    expect(await seedFromTemplate(dataDir, join(root, 'no-such-folder'), migrations, log)).toBe(
      false,
    );
    expect(log.lines[0]?.msg).toContain('no prepared database');
  });
});
