import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loader.ts';
import { modelInfos } from '../../../src/config/schema.ts';
import { disabledModels } from '../../../src/config/start-checks.ts';

describe('models.yaml', () => {
  it('fills endpoint defaults and resolves api_key_env without putting the key in the config data', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-models-'));
    writeFileSync(
      join(dir, 'models.yaml'),
      [
        'models:',
        '  - name: local',
        '    provider: openai',
        '    base_url: http://127.0.0.1:8000/v1',
        '    model: Qwen/Qwen2-7B-Instruct',
        '    api_key_env: LOCAL_KEY',
        '    params: { temperature: 0 }',
        '  - name: keyless',
        '    provider: openai',
        '    base_url: http://127.0.0.1:8001/v1',
        '    model: m',
        '  - name: old',
        '    provider: recorded',
        '',
      ].join('\n'),
    );
    const c = loadConfig({ configDir: dir, env: { LOCAL_KEY: ' sk-abc ' }, cwd: dir });
    expect(c.models[0]).toEqual({
      name: 'local',
      provider: 'openai',
      base_url: 'http://127.0.0.1:8000/v1',
      model: 'Qwen/Qwen2-7B-Instruct',
      api_key_env: 'LOCAL_KEY',
      params: { temperature: 0 },
      timeout_ms: 60_000,
      max_concurrency: 4,
      max_retries: 2,
      max_retry_after_ms: 60_000,
      reasoning: 'auto',
      arena: false,
      arena_weight: 1,
    });
    expect(c.apiKeyFor('local')).toBe('sk-abc');
    expect(c.apiKeyFor('keyless')).toBeUndefined();
    expect(c.apiKeyFor('old')).toBeUndefined();
    expect(JSON.stringify(c)).not.toContain('sk-abc');
  });

  it('says a key variable set to an empty value is set but empty, and one missing is not set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-models-'));
    writeFileSync(
      join(dir, 'models.yaml'),
      [
        'models:',
        '  - name: fake',
        '    provider: openai',
        '    base_url: http://127.0.0.1:8000/v1',
        '    model: m',
        '    api_key_env: FAKE_KEY',
        '  - name: other',
        '    provider: openai',
        '    base_url: http://127.0.0.1:8000/v1',
        '    model: m',
        '    api_key_env: OTHER_KEY',
        '',
      ].join('\n'),
    );
    const c = loadConfig({ configDir: dir, env: { FAKE_KEY: ' ' }, cwd: dir });
    expect(c.apiKeyFor('fake')).toBeUndefined();
    const [fake, other] = disabledModels(c);
    expect(fake?.reason).toBe(
      'its API key variable FAKE_KEY (models.yaml api_key_env) is set but empty',
    );
    expect(fake?.warning).toContain('FAKE_KEY is set but empty in the environment');
    expect(other?.reason).toBe(
      'its API key variable OTHER_KEY (models.yaml api_key_env) is not set',
    );
  });

  it('takes card details on any model (organisation, licence, parameters, open_weights, link) and refuses a bad link', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-models-'));
    writeFileSync(
      join(dir, 'models.yaml'),
      [
        'models:',
        '  - name: local',
        '    provider: openai',
        '    base_url: http://127.0.0.1:8000/v1',
        '    model: Qwen/Qwen2-7B-Instruct',
        '    organisation: Alibaba Cloud',
        '    parameters: 7B',
        '    open_weights: true',
        '    link: https://huggingface.co/Qwen/Qwen2-7B-Instruct',
        '  - name: OpenHermes-2.5-Mistral-7B',
        '    provider: recorded',
        '    licence: Apache-2.0',
        '  - name: plain',
        '    provider: recorded',
        '',
      ].join('\n'),
    );
    const c = loadConfig({ configDir: dir, env: {}, cwd: dir });
    expect([...modelInfos(c.models)]).toEqual([
      [
        'local',
        {
          organisation: 'Alibaba Cloud',
          parameters: '7B',
          open_weights: true,
          link: 'https://huggingface.co/Qwen/Qwen2-7B-Instruct',
        },
      ],
      ['OpenHermes-2.5-Mistral-7B', { licence: 'Apache-2.0' }],
    ]);
    writeFileSync(
      join(dir, 'models.yaml'),
      'models:\n  - name: x\n    provider: recorded\n    link: not a url\n',
    );
    expect(() => loadConfig({ configDir: dir, env: {}, cwd: dir })).toThrow(/link/);
  });
});
