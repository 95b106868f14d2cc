import type { Leases } from './leases.ts';

/**
 * A lease held for as long as this process runs (docs/deployment.md, "Migrations, seed and the demo"): taken
 * once at start, renewed every third of its term, released at stop. For something exactly one instance may
 * do at all, such as running the demo's simulators: a second instance finds it held and does without, and
 * once the holder stops (or dies and its term runs out) the next instance to start takes it.
 */
export type KeptLease =
  { held: true; epoch: number; release(): Promise<void> } | { held: false; holder: string | null };

export async function keepLease(
  leases: Leases,
  kind: string,
  key: string,
  holder: string,
  ttlMs: number,
  onError: (error: unknown) => void = () => {},
): Promise<KeptLease> {
  const epoch = await leases.acquire(kind, key, holder, ttlMs);
  if (epoch === null) return { held: false, holder: (await leases.holderOf(kind, key))?.holder ?? null };
  let renewing: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    renewing ??= leases
      .renew(kind, key, holder, epoch, ttlMs)
      .catch(onError)
      .finally(() => (renewing = undefined));
  }, ttlMs / 3);
  timer.unref();
  return {
    held: true,
    epoch,
    async release() {
      clearInterval(timer);
      await renewing;
      await leases.release(kind, key, holder, epoch).catch(onError);
    },
  };
}
