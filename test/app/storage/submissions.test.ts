/**
 * The submissions storage (migration 0011) on both backends: a name is held by one submission that is not rejected
 * (and refused when a model has it), a decision is taken once, an approval whose name became a model's meanwhile
 * leaves nothing half-registered, and each decision is told once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureModels, findModel } from '../../../src/storage/models.ts';
import {
  decideSubmission,
  getSubmission,
  insertSubmission,
  markToldSubmission,
  untoldSubmissions,
} from '../../../src/storage/submissions.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';

const at = new Date('2026-12-01T12:00:00Z');
const sub = (name: string) => ({
  name,
  baseUrl: 'https://api.example/v1',
  model: 'm',
  description: 'd',
  organisation: 'o',
  licence: 'MIT',
  submitter: { platform: 'slack' as const, userId: 'U1', channelId: 'C1' },
});

describe.each(backends())('submissions storage (%s)', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());

  it('holds a name once while not rejected, decides once, and tells each decision once', async () => {
    // Step 1: holds a name once while not rejected; a model name is refused
    {
      const a = await insertSubmission(d.db, sub('alpha'));
      expect(a.ok).toBe(true);
      const twice = await Promise.all([
        insertSubmission(d.db, sub('alpha')),
        insertSubmission(d.db, sub('alpha')),
      ]);
      expect(twice.map((r) => r.ok)).toEqual([false, false]);
      await ensureModels(d.db, ['taken'], 'recorded');
      expect(await insertSubmission(d.db, sub('taken'))).toEqual({ ok: false, heldBy: 'model' });
      if (!a.ok) return;
      const rej = await decideSubmission(d.db, a.row.id, {
        approve: false,
        by: 'x',
        reason: 'no',
        at,
      });
      expect(rej.ok && rej.row.status).toBe('rejected');
      expect((await insertSubmission(d.db, sub('alpha'))).ok).toBe(true); // free again
    }

    // Step 2: decides once; an approval on a name taken meanwhile changes nothing
    {
      const b = await insertSubmission(d.db, sub('beta'));
      const c = await insertSubmission(d.db, sub('gamma'));
      if (!b.ok || !c.ok) throw new Error('not stored');
      const both = await Promise.all([
        decideSubmission(d.db, b.row.id, { approve: true, by: 'x', apiKeyEnv: 'K', at }),
        decideSubmission(d.db, b.row.id, { approve: true, by: 'y', apiKeyEnv: null, at }),
      ]);
      expect(both.filter((r) => r.ok)).toHaveLength(1);
      expect(both.find((r) => !r.ok)).toMatchObject({ why: 'decided' });
      const model = await findModel(d.db, 'beta');
      expect(model?.provider).toBe('openai');
      expect((await getSubmission(d.db, b.row.id))?.model_id).toBe(model?.id);
      await ensureModels(d.db, ['gamma'], 'external');
      expect(
        await decideSubmission(d.db, c.row.id, { approve: true, by: 'x', apiKeyEnv: null, at }),
      ).toEqual({
        ok: false,
        why: 'name_taken',
      });
      expect((await getSubmission(d.db, c.row.id))?.status).toBe('pending');
      expect(
        await decideSubmission(d.db, 9999, { approve: false, by: 'x', reason: 'r', at }),
      ).toEqual({
        ok: false,
        why: 'not_found',
      });
    }

    // Step 3: tells each decision once
    {
      const untold = await untoldSubmissions(d.db, 'slack');
      expect(untold.map((s) => s.status).sort()).toEqual(['approved', 'rejected']);
      const s = untold[0];
      if (!s) throw new Error('none');
      const claims = await Promise.all([
        markToldSubmission(d.db, s.id, s.status),
        markToldSubmission(d.db, s.id, s.status),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await untoldSubmissions(d.db, 'slack')).map((x) => x.id)).not.toContain(s.id);
      expect(await untoldSubmissions(d.db, 'discord')).toEqual([]);
    }
  });
});
