import { MusterApi, type MusterItem } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { i18next } from '../../../i18n/index.ts';

/** Marks people of a roll call under way safe by hand; says how many were marked. */
export async function markSafe(musterId: number, cardUserIds: number[]): Promise<MusterItem> {
  const after = await call(MusterApi.markSafe, { body: { Id: musterId, CardUserIds: cardUserIds } });
  feedback.success(i18next.t('accessControl.message.musterMarked', { count: cardUserIds.length }), 3);
  return after;
}
