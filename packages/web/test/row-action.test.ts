import { describe, expect, it, vi } from 'vitest';
import { runRowAction } from '../src/components/list-page/list-state.ts';
import { RequestError } from '../src/core/request.ts';

/**
 * Issue 27, item 3: a row action the server refuses (a remote open while no instance drives the controller) is
 * shown to the operator by the client in their language; it is not an unhandled error for the error log. A
 * row action that breaks for another reason still is.
 */
describe('a row action', () => {
  it('ends quietly on a refusal the client already showed, without reloading', async () => {
    const refresh = vi.fn();
    const refusal = new RequestError('No server instance drives device East gate at this moment', 409);
    await expect(runRowAction(() => Promise.reject(refusal), refresh)).resolves.toBeUndefined();
    expect(refresh).not.toHaveBeenCalled();
  });

  it('reloads after it ran, and lets any other failure through to the error log', async () => {
    const refresh = vi.fn();
    await runRowAction(() => Promise.resolve('done'), refresh);
    expect(refresh).toHaveBeenCalledTimes(1);
    const bug = new TypeError('row.Id is undefined');
    await expect(runRowAction(() => Promise.reject(bug), refresh)).rejects.toBe(bug);
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});
