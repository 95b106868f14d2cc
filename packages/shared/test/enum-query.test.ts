import { describe, expect, it } from 'vitest';
import { CardUserLinkChannelApi } from '../src/index.ts';

/**
 * An enumeration filter in a query string reads the enumeration's values with their sign: the authorisation
 * list's "pending deletion" (-1) and "deletion succeeded" (-2) were refused as a wrong type, though the screen
 * and its sync panel offer them.
 */
describe('enumeration filters in a query string', () => {
  const query = CardUserLinkChannelApi.list.query;

  it('accepts every issue status, negative ones included', () => {
    for (const value of [-2, -1, 0, 1, 2, 3])
      expect(query.parse({ IssueStatus: String(value) }).IssueStatus).toBe(value);
  });

  it('still refuses what is not one of its values or not an integer text', () => {
    for (const text of ['-3', '4', '-0', '--1', '-01', '1.5', ' 1', '', '-'])
      expect(query.safeParse({ IssueStatus: text }).success, text).toBe(false);
  });
});
