import { describe, expect, it } from 'vitest';
import { serverFieldErrors } from '../src/core/field-errors.ts';
import { RequestError } from '../src/core/request.ts';

describe('serverFieldErrors', () => {
  it('puts a wrong current password under its field, in the words the server sent', () => {
    const error = new RequestError('原密码错误', 400, {
      Errors: [{ Field: 'OldPassword', Message: '原密码错误' }],
    });
    expect(serverFieldErrors(error, ['OldPassword', 'NewPassword'])).toEqual({
      fields: [{ name: 'OldPassword', errors: ['原密码错误'] }],
      rest: null,
    });
  });

  it('shows other fields by their messages only, never the API field name', () => {
    const error = new RequestError('x', 400, { Errors: [{ Field: 'Other', Message: '不能为空' }] });
    const { fields, rest } = serverFieldErrors(error, ['OldPassword']);
    expect(fields).toEqual([]);
    expect(rest).toBe('不能为空');
    expect(rest).not.toContain('Other');
  });

  it('falls back to the message without a field list, and stays silent on network errors', () => {
    expect(serverFieldErrors(new RequestError('无权限', 403), ['OldPassword']).rest).toBe('无权限');
    expect(serverFieldErrors(new RequestError('Request error', 0), ['OldPassword']).rest).toBeNull();
  });
});
