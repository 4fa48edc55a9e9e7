import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  copyField,
  copyRequest,
  copyRowsSql,
  copyTextSql,
} from '../../../src/storage/copy-rows.ts';

// Compiles PostgreSQL without a database (Kysely's documented "cold" setup).
const db = new Kysely<unknown>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('storage/copy-rows', () => {
  it.each([
    [null, '\\N'],
    [true, 't'],
    [false, 'f'],
    [42, '42'],
    ['plain (bothbad) 文心一言 4.0', 'plain (bothbad) 文心一言 4.0'],
    ['a\tb\nc\rd\\e', 'a\\tb\\nc\\rd\\\\e'],
    ['\\N', '\\\\N'],
  ] as const)('writes %j as COPY text field %j', (v, want) => {
    expect(copyField(v)).toBe(want);
  });

  it('compiles a COPY FROM STDIN whose rows are its one parameter, which the connections recognise', () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => [i + 1, `k${i}`, i % 2 === 0] as const);
    const q = copyRowsSql('zj_import_input', ['ord', 'import_key', 'named'], rows).compile(db);
    const req = copyRequest(q.sql, q.parameters);
    expect(req?.statement).toBe('COPY zj_import_input (ord, import_key, named) FROM STDIN');
    expect(req?.chunks).toHaveLength(2); // 10,000 lines per chunk
    const text = req?.chunks.join('') ?? '';
    expect(text.startsWith('1\tk0\tt\n2\tk1\tf\n')).toBe(true);
    expect(text.endsWith('10001\tk10000\tt\n')).toBe(true);
  });

  it('compiles COPY text written ahead (chunks of whole lines) into the same request, chunks kept as given', () => {
    const chunks = ['1\tk0\tt\n2\tk1\tf\n', '3\tk\\2\tt\n'];
    const q = copyTextSql('zj_import_input', ['ord', 'import_key', 'named'], chunks).compile(db);
    expect(copyRequest(q.sql, q.parameters)).toEqual({
      statement: 'COPY zj_import_input (ord, import_key, named) FROM STDIN',
      chunks,
    });
  });

  it('recognises nothing else: other statements, a COPY without its marker, other parameters', () => {
    expect(copyRequest('SELECT $1', [['x']])).toBeUndefined();
    expect(copyRequest('COPY t (a) FROM STDIN', [['x']])).toBeUndefined();
    expect(copyRequest('COPY t (a) FROM STDIN /* zhujiu:copy-rows $1 */', ['x'])).toBeUndefined();
    expect(copyRequest('COPY t (a) FROM STDIN /* zhujiu:copy-rows $1 */', [])).toBeUndefined();
  });
});
