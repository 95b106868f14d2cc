import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  antdRule,
  citizenId,
  enumValues,
  issueStatus,
  phone,
  required,
  translate,
  zodRule,
  type ValidationKey,
} from '../src/index.ts';

describe('zodRule', () => {
  const schema = z.object({
    Phone: z.string().superRefine(zodRule(phone)),
    IdNumber: z.string().superRefine(zodRule(required, citizenId)),
  });

  it('passes valid input through unchanged', () => {
    const input = { Phone: '13800138000', IdNumber: '11010519491231002X' };
    expect(schema.parse(input)).toEqual(input);
  });

  it('reports the catalogue key of the failing rule at the field path', () => {
    const result = schema.safeParse({ Phone: '12345', IdNumber: '440524188001010015' });
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map((i) => ({ path: i.path, code: i.code, message: i.message }));
    expect(issues).toEqual([
      { path: ['Phone'], code: 'custom', message: 'validation.phone' },
      { path: ['IdNumber'], code: 'custom', message: 'validation.citizenIdCheck' },
    ]);
  });

  it('stops at the first failing rule, so a field gets one message', () => {
    const result = schema.safeParse({ Phone: '', IdNumber: '' });
    expect(result.error!.issues.map((i) => i.message)).toEqual(['validation.required']);
  });

  it('lets blank optional fields through', () => {
    expect(z.string().optional().superRefine(zodRule(phone)).parse(undefined)).toBeUndefined();
    expect(z.string().superRefine(zodRule(phone)).parse('')).toBe('');
  });

  it('sees the trimmed value when the schema trims first', () => {
    const trimmed = z.string().trim().superRefine(zodRule(phone));
    expect(trimmed.parse(' 13800138000 ')).toBe('13800138000');
    expect(z.string().superRefine(zodRule(phone)).safeParse(' 13800138000 ').success).toBe(false);
  });

  it('accepts exactly the values of an enumeration through z.literal(enumValues(...))', () => {
    const status = z.literal(enumValues(issueStatus));
    expect(status.parse(-2)).toBe(-2);
    expect(status.safeParse(4).success).toBe(false);
    expect(status.safeParse('3').success).toBe(false);
  });
});

describe('antdRule', () => {
  const t = (key: ValidationKey) => translate('en', key);

  it('resolves for a valid value', async () => {
    await expect(antdRule(t, required, phone).validator({}, '13800138000')).resolves.toBeUndefined();
  });

  it('rejects with the translated message of the first failing rule', async () => {
    await expect(antdRule(t, required, phone).validator({}, '')).rejects.toThrow('Cannot be empty');
    await expect(antdRule(t, required, phone).validator({}, '123')).rejects.toThrow(
      'Phone number format error',
    );
  });

  it('uses the translate function it is given', async () => {
    const zh = (key: ValidationKey) => translate('zh', key);
    await expect(antdRule(zh, phone).validator({}, '123')).rejects.toThrow('手机号码格式错误');
  });

  it('accepts a blank optional field', async () => {
    await expect(antdRule(t, phone).validator({}, undefined)).resolves.toBeUndefined();
  });
});
