/**
 * `zhujiu datasets build` in-process through `runCli` (no database): the knowledge sets are written under the
 * datasets folder's zhujiu-built/, byte-identical when built again, with provenance on every item; `zhujiu
 * suites` then reads them through the knowledge loader; without a build they are built into the datasets cache folder.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcess } from '../../helpers/run-cli.ts';

const datasets = mkdtempSync(join(tmpdir(), 'zj-built-'));
const env = { ZHUJIU_DATASETS_DIR: datasets };
const built = join(datasets, 'zhujiu-built');

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile())
      out[join(e.parentPath, e.name).slice(dir.length)] = readFileSync(
        join(e.parentPath, e.name),
        'latin1',
      );
  return out;
}

interface SuitesJson {
  suites: {
    suite: string;
    items: number | null;
    error?: string;
    datasets: { dataset: string; items: number | null }[];
  }[];
}

describe('zhujiu datasets build', () => {
  it('needs no build step: zhujiu suites builds the sets into the datasets cache folder, not the datasets folder', async () => {
    // Its own empty datasets folder: the other tests of this file build into `datasets`.
    const folder = mkdtempSync(join(tmpdir(), 'zj-unbuilt-'));
    const cache = mkdtempSync(join(tmpdir(), 'zj-built-cache-'));
    const r = await inProcess(['suites', '--json'], {
      env: { ZHUJIU_DATASETS_DIR: folder, ZHUJIU_DATASETS_CACHE: cache },
    });
    const k = (JSON.parse(r.stdout) as SuitesJson).suites.find(
      (s) => s.suite === 'zhujiu-knowledge',
    );
    expect(k?.items).toBe(1500);
    expect(readdirSync(join(cache, 'zhujiu-built', 'knowledge'))).toHaveLength(10);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('an --out under a file is one line naming it, exit 1, nothing written', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'zj-built-file-')), 'f');
    writeFileSync(file, 'x');
    const r = await inProcess(['datasets', 'build', '--out', join(file, 'sub')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error [file_unwritable]: cannot write the constructed datasets into ${join(file, 'sub')} (a file is in its path); give --out a folder you can write\n`,
    );
  });

  it('writes the ten sets and a manifest, byte-identical when built again', async () => {
    const r = await inProcess(['datasets', 'build', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as {
      out: string;
      format: string;
      builders: {
        name: string;
        files: { path: string; items: number; sha256: string }[];
        sources: { package: string; version: string; licence: string }[];
      }[];
    };
    expect(j.out).toBe(built);
    expect(j.format).toBe('zhujiu-built/1');
    const k = j.builders.find((b) => b.name === 'knowledge');
    expect(k?.files.map((f) => `${f.path} ${f.items}`)).toContain(
      'knowledge/world_completeness.jsonl 100',
    );
    expect(k?.files).toHaveLength(10);
    expect(k?.sources.map((s) => s.package).sort()).toEqual([
      'chinese-days',
      'cnchar',
      'countries-list',
      'i18n-iso-countries',
      'world-countries',
    ]);
    const first = snapshot(built);
    expect(Object.keys(first)).toHaveLength(11);
    expect(JSON.parse(first['/manifest.json'] as string)).toEqual({
      format: j.format,
      builders: j.builders,
    });

    const row = JSON.parse(
      readFileSync(join(built, 'knowledge', 'world_accuracy.jsonl'), 'utf8').split(
        '\n',
      )[0] as string,
    ) as {
      provenance: { package: string; version: string; licence: string }[];
    };
    const versions = Object.fromEntries((k?.sources ?? []).map((s) => [s.package, s]));
    for (const p of row.provenance) expect(p).toEqual(versions[p.package]);

    const again = await inProcess(['datasets', 'build'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('knowledge: 10 files, 1000 items');
    expect(snapshot(built)).toEqual(first);
    const other = mkdtempSync(join(tmpdir(), 'zj-built-out-'));
    expect((await inProcess(['datasets', 'build', '--out', other], { env })).code).toBe(0);
    expect(snapshot(other)).toEqual(first);
  });

  it('lets zhujiu suites read them through the knowledge loader', async () => {
    const r = await inProcess(['suites', '--json'], { env });
    const k = (JSON.parse(r.stdout) as SuitesJson).suites.find(
      (s) => s.suite === 'zhujiu-knowledge',
    );
    expect(k?.error).toBeUndefined();
    expect(k?.datasets).toHaveLength(15);
    expect(k?.items).toBe(1500);
  });
});
