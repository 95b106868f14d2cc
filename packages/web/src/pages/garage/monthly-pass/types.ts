import type { MonthlyPassItem } from '@gatehouse/shared';
/** A monthly pass as `GET /api/MonthlyPass` lists it (own file: the list and the renew dialog both read it). */
export type PassRow = MonthlyPassItem;
