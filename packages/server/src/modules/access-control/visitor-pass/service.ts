import {
  displayToCard,
  passProfileParts,
  passWindowKey,
  passWindowProblem,
  toWallClock,
  type LocalMinute,
  type VisitorPassBody,
  type VisitorPassItem,
} from '@gatehouse/shared';
import QRCode from 'qrcode';
import { audit } from '../../../platform/audit.ts';
import { areaTimeZone } from '../../../platform/area-zone.ts';
import {
  actorDisplayName,
  systemActor,
  type AreaContext,
  type ServiceContext,
} from '../../../platform/context.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import { areaNames, emitEvent } from '../../../platform/outbox/outbox.ts';
import { FileReply } from '../../../platform/route.ts';
import { registerVisitorCard } from '../card-registration/service.ts';
import { grantVisitorDoors, releaseProfiles, revokeVisitorDoors } from '../card-user-link-channel/service.ts';
import { closeVisitorHolder, insertVisitorHolder } from '../card-user/service.ts';
import type { Trx } from '../common.ts';
import { dropVisitorProfiles, visitorProfile } from '../time-profile/service.ts';
import { notVisitorHolder } from './holders.ts';
import { enrichPasses, passQuery, publicPass, toPassItem } from './items.ts';

/**
 * Visitor passes (docs/access-control.md, "Visitor passes"). A pass is a holder row of its own (hidden from the
 * holder screens) with a generated card and ordinary authorisations on the chosen doors, so the device sync
 * writes it to the controllers like any grant and takes it off like any revoke: this module never touches a
 * controller. Its hours travel as a time profile where a window does not run whole days; its end is the expiry
 * sweep's (a durable schedule: the table itself, read by one instance of the cluster every few seconds).
 */

export const PASS_VALID = 1;
export const PASS_EXPIRED = 2;
export const PASS_REVOKED = 3;

/** A holder's validity ends inclusive (its last second); a pass's end is exclusive. */
const HOLDER_END = 1000;

function localMinute(ms: number, zone: string): LocalMinute {
  const wall = toWallClock(ms, zone)!;
  return { date: wall.format('YYYY-MM-DD'), minute: wall.hour() * 60 + wall.minute() };
}

/** One pass of the area as the list shows it, read in `db` (a transaction's, to see its own writes). */
async function passRow(ctx: AreaContext, id: number, db: Trx = ctx.db.kysely) {
  const row = await passQuery(db)
    .where('VisitorPass.Id', '=', id)
    .where('VisitorPass.AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!row) throw notFound();
  const [item] = await enrichPasses(ctx, [toPassItem(row)], db);
  return item!;
}

export async function passById(ctx: AreaContext, id: number): Promise<VisitorPassItem> {
  return publicPass(await passRow(ctx, id));
}

/** The pass as an outbox event names it: the list's item and its area. */
async function emitPass(
  ctx: AreaContext,
  trx: Trx,
  type: 'visitor.pass.issued' | 'visitor.pass.ended',
  id: number,
): Promise<void> {
  const item = publicPass(await passRow(ctx, id, trx));
  const names = await areaNames(trx, [ctx.areaId]);
  await emitEvent(trx, {
    type,
    at: ctx.clock.now(),
    data: { ...item, AreaId: ctx.areaId, AreaName: names.get(ctx.areaId) ?? '' },
  });
}

/** The host: an enabled holder of the area, not a visitor. */
async function hostOf(ctx: AreaContext, trx: Trx, hostId: number) {
  const host = await trx
    .selectFrom('CardUser')
    .select(['Id', 'Name', 'Disabled'])
    .where('Id', '=', hostId)
    .where('AreaId', '=', ctx.areaId)
    .where(notVisitorHolder('CardUser.Id'))
    .executeTakeFirst();
  if (!host || Number(host.Disabled) === 1)
    throw fieldError('HostCardUserId', 'accessControl.error.passHostInvalid');
  return host;
}

/**
 * Issues a pass in one transaction: the window checked (to the minute, not past, not too long), the host, a
 * holder row and a generated card, the window's time profile when its hours need one, the authorisations (the
 * channels must be the area's and the controllers' profile slots must suffice, else nothing is written), the
 * pass, its audit entry and its event. Answers the pass with its QR code.
 */
export async function issuePass(
  ctx: AreaContext,
  body: VisitorPassBody,
): Promise<VisitorPassItem & { QrDataUrl: string }> {
  const now = ctx.clock.now();
  const problem = passWindowProblem(body.ValidFrom, body.ValidTo, now);
  if (problem) throw fieldError(problem.field, problem.key, problem.params);
  const zone = await areaTimeZone(ctx.db.kysely, ctx.areaId);
  const first = localMinute(body.ValidFrom, zone);
  const last = localMinute(body.ValidTo - 60_000, zone);
  const parts = passProfileParts(first, last);
  const channelIds = [...new Set(body.ChannelIds)].sort((a, b) => a - b);
  const id = await ctx.db.kysely.transaction().execute(async (trx) => {
    const host = await hostOf(ctx, trx, body.HostCardUserId);
    const validity = { ValidFrom: body.ValidFrom, ValidTo: body.ValidTo - HOLDER_END };
    const holderId = await insertVisitorHolder(
      trx,
      ctx.areaId,
      { Name: body.VisitorName, Phone: body.Phone ?? null, ...validity },
      now,
    );
    const card = await registerVisitorCard(trx, ctx.areaId, holderId, now);
    if (!card) throw new AppError(409, 'accessControl.error.passNoCardNumber');
    const profileId = parts
      ? await visitorProfile(trx, ctx.areaId, passWindowKey(first, last), parts, now)
      : null;
    await grantVisitorDoors(ctx, trx, holderId, channelIds, { ...validity, TimeProfileId: profileId });
    const { Id } = await trx
      .insertInto('VisitorPass')
      .values({
        AreaId: ctx.areaId,
        CardUserId: holderId,
        CardId: card.Id,
        CardNumber: card.CardNumber,
        VisitorName: body.VisitorName,
        Phone: body.Phone ?? null,
        Company: body.Company ?? null,
        HostCardUserId: host.Id,
        HostName: host.Name,
        ChannelIds: JSON.stringify(channelIds),
        ValidFrom: body.ValidFrom,
        ValidTo: body.ValidTo,
        HoursOnController: parts ? 1 : 0,
        State: PASS_VALID,
        CreatedBy: actorDisplayName(ctx.actor),
        CreatedAt: now,
        UpdatedAt: now,
      })
      .returning('Id')
      .executeTakeFirstOrThrow();
    await audit(
      ctx,
      {
        action: 'issuePass',
        entity: 'VisitorPass',
        entityId: Id,
        after: {
          Name: body.VisitorName,
          Company: body.Company ?? null,
          Phone: body.Phone ?? null,
          HostName: host.Name,
          ChannelIds: channelIds,
          CardNumber: card.CardNumber,
          ValidFrom: body.ValidFrom,
          ValidTo: body.ValidTo,
        },
      },
      trx,
    );
    await emitPass(ctx, trx, 'visitor.pass.issued', Id);
    return Id;
  });
  const item = await passById(ctx, id);
  return { ...item, QrDataUrl: await QRCode.toDataURL(qrText(item.CardNumber), QR_OPTIONS) };
}

/**
 * Ends a valid pass in the caller's transaction (expired or revoked): its state first, as a conditional
 * UPDATE, so of two instances (or a revoke and the sweep) only one ends it; then its authorisations revoked
 * (the sync takes its card off every controller), its holder row disabled, its audit entry and its event.
 * False when it had ended already.
 */
async function endPass(ctx: AreaContext, trx: Trx, id: number, state: 2 | 3): Promise<boolean> {
  const now = ctx.clock.now();
  const ended = await trx
    .updateTable('VisitorPass')
    .set({
      State: state,
      EndedAt: now,
      EndedBy: state === PASS_REVOKED ? actorDisplayName(ctx.actor) : null,
      UpdatedAt: now,
    })
    .where('Id', '=', id)
    .where('AreaId', '=', ctx.areaId)
    .where('State', '=', PASS_VALID)
    .executeTakeFirst();
  if (Number(ended.numUpdatedRows) !== 1) return false;
  const pass = await trx
    .selectFrom('VisitorPass')
    .select(['CardUserId', 'VisitorName', 'CardNumber'])
    .where('Id', '=', id)
    .executeTakeFirstOrThrow();
  await revokeVisitorDoors(ctx, trx, pass.CardUserId);
  await closeVisitorHolder(trx, pass.CardUserId, now);
  await audit(
    ctx,
    {
      action: state === PASS_REVOKED ? 'revokePass' : 'expirePass',
      entity: 'VisitorPass',
      entityId: id,
      before: { PassState: PASS_VALID },
      after: { Name: pass.VisitorName, CardNumber: pass.CardNumber, PassState: state },
    },
    trx,
  );
  await emitPass(ctx, trx, 'visitor.pass.ended', id);
  return true;
}

/** Revokes a valid pass of the area (409 when it had ended): its card leaves the controllers at the next sync. */
export async function revokePass(ctx: AreaContext, id: number): Promise<VisitorPassItem> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const pass = await trx
      .selectFrom('VisitorPass')
      .select('Id')
      .where('Id', '=', id)
      .where('AreaId', '=', ctx.areaId)
      .executeTakeFirst();
    if (!pass) throw notFound();
    if (!(await endPass(ctx, trx, id, PASS_REVOKED)))
      throw new AppError(409, 'accessControl.error.passEnded');
  });
  return passById(ctx, id);
}

/** Who ends passes at their end: the system, by this name in the operation log. */
const EXPIRY_ACTOR = systemActor('visitor pass expiry');

/**
 * The expiry sweep (a cluster singleton every few seconds, app.ts): every valid pass whose end has come is
 * ended, each in its own transaction, oldest end first; then the time profiles of windows no pass needs any
 * more are dropped. Durable: what is due is read from the table, so an instance that dies leaves nothing
 * undone that the next holder of the sweep does not do. Returns how many passes it ended.
 */
export async function endDuePasses(base: Pick<ServiceContext, 'db' | 'clock'>, limit = 200): Promise<number> {
  const due = await base.db.kysely
    .selectFrom('VisitorPass')
    .select(['Id', 'AreaId'])
    .where('State', '=', PASS_VALID)
    .where('ValidTo', '<=', base.clock.now())
    .orderBy('ValidTo')
    .limit(limit)
    .execute();
  let ended = 0;
  for (const pass of due) {
    const ctx: AreaContext = { ...base, lang: 'zh', actor: EXPIRY_ACTOR, areaId: pass.AreaId };
    if (await ctx.db.kysely.transaction().execute((trx) => endPass(ctx, trx, pass.Id, PASS_EXPIRED))) ended++;
  }
  await base.db.kysely
    .transaction()
    .execute((trx) => dropVisitorProfiles(trx, (ids) => releaseProfiles(trx, ids)));
  return ended;
}

const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 2, width: 320 } as const;

/**
 * What a pass's QR code holds: the number a reader must report to the controller for this card, its controller
 * value in decimal digits. A QR reader on a WG controller passes the digits it reads on as the card number; the
 * printed form (CardNumber, what operators read and type) is that value byte-reversed, as on every card here.
 */
export function qrText(cardNumber: string): string {
  return String(displayToCard(cardNumber));
}

/** A pass's QR code (PNG), encoding its card as the controller knows it: what a QR reader at the door reports. */
export async function passQr(ctx: AreaContext, id: number): Promise<FileReply> {
  const pass = await ctx.db.kysely
    .selectFrom('VisitorPass')
    .select(['CardNumber'])
    .where('Id', '=', id)
    .where('AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!pass) throw notFound();
  const png = await QRCode.toBuffer(qrText(pass.CardNumber), { ...QR_OPTIONS, type: 'png' });
  return new FileReply(png, `visitor-pass-${id}.png`, 'image/png');
}
