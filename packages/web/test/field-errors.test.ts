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

  it('puts a refused passcode on the field it is typed in, once, never as a toast naming "Passcodes.0"', () => {
    const message = 'A passcode is 1 to 6 digits, not all zeros';
    const error = new RequestError(`Some fields are not valid: Passcodes.0 ${message}`, 400, {
      Errors: [
        { Field: 'Passcodes.0', Message: message },
        { Field: 'Passcodes.2', Message: message },
      ],
    });
    expect(serverFieldErrors(error, ['Name', 'PasscodesText'], { Passcodes: 'PasscodesText' })).toEqual({
      fields: [{ name: 'PasscodesText', errors: [message] }],
      rest: null,
    });
    // A path into a field of the form's own name goes on that field.
    const list = new RequestError('x', 400, {
      Errors: [{ Field: 'Segments.1.End', Message: '结束不能早于开始' }],
    });
    expect(serverFieldErrors(list, ['Segments']).fields).toEqual([
      { name: 'Segments', errors: ['结束不能早于开始'] },
    ]);
  });
});
