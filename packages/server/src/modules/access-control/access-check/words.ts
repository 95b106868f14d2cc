import {
  doorScheduleAction,
  enumLabel,
  localMinuteOf,
  localMinuteText,
  translate,
  type AccessCheckStep,
  type AccessVerdict,
  type Lang,
} from '@gatehouse/shared';

/**
 * The access check's words (docs/access-control.md, "Access check"): every step says what it found as a stable code
 * (`Finding`, the key `accessCheck.finding.<Finding>` of the shared catalogue) and in the operator's words, in the
 * request's language, so a machine and a person read the same answer.
 */

export type Facts = AccessCheckStep['Data'];
export type Params = Record<string, string | number>;

export interface Words {
  lang: Lang;
  step(step: string, verdict: AccessVerdict, finding: string, params?: Params, data?: Facts): AccessCheckStep;
  t(key: string, params?: Params): string;
  /** An instant as the area's wall clock to the minute. */
  time(ms: number): string;
  /** A door mode (0x80: 1 normally open, 2 normally closed, 3 controlled) in the operator's words. */
  mode(mode: number): string;
  /** A card's door value (0 none, 1 at any time, 2..254 a controller profile) in the operator's words. */
  doorValue(value: number): string;
}

export function words(lang: Lang, zone: string): Words {
  const t = (key: string, params?: Params) => translate(lang, key, params);
  return {
    lang,
    t,
    step: (Step, Verdict, Finding, params = {}, Data = {}) => ({
      Step,
      Verdict,
      Finding,
      Text: t(`accessCheck.finding.${Finding}`, params),
      Data,
    }),
    time: (ms) => localMinuteText(localMinuteOf(ms, zone)),
    // The door schedule's actions 1..3 are the door modes 1..3 (0x80).
    mode: (mode) => enumLabel(lang, doorScheduleAction, mode),
    doorValue: (value) =>
      value === 0
        ? t('accessCheck.value.none')
        : value === 1
          ? t('accessCheck.value.any')
          : t('accessCheck.value.profile', { slot: value }),
  };
}

const RANK: Record<AccessVerdict, number> = { refuse: 3, warn: 2, unknown: 1, pass: 0 };

/** Steps that tell history rather than take part in the decision: the last refusal the controller reported. */
const HISTORY: readonly string[] = ['lastRefusal'];

const deciding = (steps: readonly AccessCheckStep[]) => steps.filter((s) => !HISTORY.includes(s.Step));

/** A side's verdict: the first refusal, else a caveat, else something it cannot tell, else it lets the card through. */
export function verdictOf(steps: readonly AccessCheckStep[]): AccessVerdict {
  return deciding(steps).reduce<AccessVerdict>((v, s) => (RANK[s.Verdict] > RANK[v] ? s.Verdict : v), 'pass');
}

/** The step that decided the verdict (the first of its rank), whose words explain it. */
export function decidingStep(steps: readonly AccessCheckStep[]): AccessCheckStep | undefined {
  const verdict = verdictOf(steps);
  return deciding(steps).find((s) => s.Verdict === verdict);
}
