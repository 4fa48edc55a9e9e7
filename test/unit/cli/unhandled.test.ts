/**
 * cli/unhandled.ts: what reaches a log line or stderr from a promise rejection nobody handled is redacted, and a
 * long-lived process's logger receives it while the one-shot behaviour comes back afterwards.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  describeRejection,
  keepRunningOnUnhandledRejection,
  redactProcessText,
} from '../../../src/cli/unhandled.ts';
import { secretValuesOf } from '../../../src/config/secret-values.ts';
import { createLogger } from '../../../src/core/logger.ts';

const env = {
  DISCORD_TOKEN: 'discord-token-value',
  OPENAI_API_KEY: 'key-1234',
  DATABASE_URL: 'postgres://zj:s3cret@db.example:5432/zhujiu',
  HOME: '/home/zj',
};

describe('redactProcessText', () => {
  it('removes secret environment values, URL passwords and bearer tokens, and keeps the rest', () => {
    const text =
      'connect postgres://zj:s3cret@db.example:5432/zhujiu failed; token discord-token-value, key key-1234, ' +
      'Authorization: Bearer abc.def.ghi, other postgres://u:pw@h/x, home /home/zj';
    expect(redactProcessText(text, secretValuesOf(env))).toBe(
      'connect [redacted] failed; token [redacted], key [redacted], Authorization: Bearer [redacted], ' +
        'other postgres://u:[redacted]@h/x, home /home/zj',
    );
  });
});

describe('describeRejection', () => {
  it('gives an error as name, redacted message, code and redacted stack', () => {
    const err = Object.assign(new Error('lost postgres://zj:s3cret@db.example:5432/zhujiu'), {
      code: '57P01',
    });
    const d = describeRejection(err, secretValuesOf(env));
    expect(d).toMatchObject({ name: 'Error', message: 'lost [redacted]', code: '57P01' });
    expect(d.stack).not.toContain('s3cret');
  });

  it('gives any other value as its redacted text', () => {
    expect(describeRejection('token discord-token-value', secretValuesOf(env))).toEqual({
      message: 'token [redacted]',
    });
  });
});

describe('keepRunningOnUnhandledRejection', () => {
  let restore: (() => void) | undefined;
  afterEach(() => restore?.());

  it('logs the rejection at level error through the given logger, and restore removes its listener', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('info', {
      write: (s: string) => {
        lines.push(JSON.parse(s) as Record<string, unknown>);
      },
    });
    const before = process.listenerCount('unhandledRejection');
    restore = keepRunningOnUnhandledRejection(logger);
    expect(process.listenerCount('unhandledRejection')).toBe(before + 1);
    process.emit('unhandledRejection', new Error('write lost'), Promise.resolve());
    expect(lines).toMatchObject([
      {
        level: 50,
        component: 'process',
        msg: 'unhandled promise rejection; the process keeps running',
        err: { message: 'write lost' },
      },
    ]);
    restore();
    restore = undefined;
    expect(process.listenerCount('unhandledRejection')).toBe(before);
  });
});
