import { describe, expect, it } from 'vitest';
import { parseRecordId, parseWholeNumber, unknownRecordNumber } from '../../../src/core/numbers.ts';

describe('whole numbers typed by people', () => {
  it('takes plain decimal digits only', () => {
    expect(parseWholeNumber('0')).toBe(0);
    expect(parseWholeNumber('42')).toBe(42);
    expect(parseWholeNumber('007')).toBe(7);
    for (const s of [
      '',
      ' 1',
      '1 ',
      '1e3',
      '0x10',
      '0b1',
      '1.5',
      '1.0',
      '-1',
      '+1',
      'Infinity',
      'NaN',
      '١٢',
    ]) {
      expect(parseWholeNumber(s), s).toBeUndefined();
    }
  });

  it('bounds the value', () => {
    expect(parseWholeNumber('0', 1)).toBeUndefined();
    expect(parseWholeNumber('5', 1, 4)).toBeUndefined();
    expect(parseWholeNumber('99999999999999999')).toBeUndefined(); // above 2^53
  });

  it('record numbers: digits with an optional #, at least 1', () => {
    expect(parseRecordId('12')).toBe(12);
    expect(parseRecordId('#12')).toBe(12);
    for (const s of ['0', '#', '##1', '1e3', '#0x10', '-3', ''])
      expect(parseRecordId(s), s).toBeUndefined();
  });

  it('a record number too large is a number that names no record, not a typo', () => {
    expect(unknownRecordNumber('12345678901234567890')).toBe('12345678901234567890');
    expect(unknownRecordNumber('#0012345678901234567890')).toBe('12345678901234567890');
    for (const s of ['12', '#12', '0', '', '#', '1e30', '-3', 'abc', '1.5'])
      expect(unknownRecordNumber(s), s).toBeUndefined();
  });
});
