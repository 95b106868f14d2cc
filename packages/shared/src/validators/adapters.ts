import type { ValidationKey, Validator } from './rules.ts';

/** The part of zod's refinement context the adapter needs (kept structural: no zod import here). */
interface RefinementCtx {
  addIssue(issue: { code: 'custom'; message: string; input?: unknown }): void;
}

/**
 * zod adapter: `z.string().superRefine(zodRule(phone))`. The issue message is the catalogue key; the
 * server's error handler translates it into the request's language.
 */
export function zodRule(...rules: Validator[]) {
  return (value: unknown, ctx: RefinementCtx): void => {
    for (const rule of rules) {
      const key = rule(value);
      if (key) {
        ctx.addIssue({ code: 'custom', message: key, input: value });
        return;
      }
    }
  };
}

/** The shape of an antd Form rule with a custom validator (structural: no antd import here). */
export interface AntdRule {
  validator(rule: unknown, value: unknown): Promise<void>;
}

/**
 * antd adapter: `rules={[antdRule(t, required, phone)]}` with the app's translate function.
 * The first failing rule's message is shown.
 */
export function antdRule(translate: (key: ValidationKey) => string, ...rules: Validator[]): AntdRule {
  return {
    validator(_rule, value) {
      for (const rule of rules) {
        const key = rule(value);
        if (key) return Promise.reject(new Error(translate(key)));
      }
      return Promise.resolve();
    },
  };
}
