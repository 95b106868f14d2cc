/**
 * The cluster building blocks (docs/deployment.md, "Cluster building blocks"): what several Gatehouse
 * instances on one PostgreSQL database share, each with a trivial one-process form for SQLite.
 *
 * - bus: publish/subscribe and request/reply between instances (LocalBus; PgBus over LISTEN/NOTIFY).
 * - leases: ownership of a thing by one instance at a time, with a fencing epoch for every write under it.
 * - instances: the registry of live instances (heartbeats) and this process's instance id.
 * - singleton: a periodic task run by one instance of the cluster at a time.
 * - balance: which instance should own which device (pure).
 * - owned-devices: devices of a kind shared out among live instances under fenced leases, rebalanced.
 * - owner-calls: a command carried to the instance that owns a device, its answer back.
 * - migration: the Lease and Instance tables (not registered in db/migrations yet).
 */
export {
  BusChannelError,
  BusClosedError,
  BusPayloadTooLargeError,
  BusRemoteError,
  BusTimeoutError,
  LocalBus,
  LocalBusNetwork,
  MAX_MESSAGE_BYTES,
  type Bus,
  type Json,
  type MessageHandler,
  type MessageMeta,
  type RequestHandler,
  type Unsubscribe,
} from './bus.ts';
export { PgBus, type PgBusOptions, type PgBusStats } from './pg-bus.ts';
export { byLeaseKey, Leases, LeaseLostError, type Lease, type LeaseDb } from './leases.ts';
export {
  InstanceRegistry,
  instanceId,
  joinCluster,
  type InstanceInfo,
  type InstanceMeta,
  type Membership,
  type MembershipOptions,
  type RegisterOptions,
} from './instances.ts';
export {
  SINGLETON_KIND,
  SingletonRunner,
  type SingletonOptions,
  type SingletonTaskContext,
  type TickResult,
} from './singleton.ts';
export { affinity, balance, movesFor, type BalancePlan, type DeviceHolding, type Move } from './balance.ts';
export { OwnedDevices, type OwnedDevicesOptions, type OwnershipChange } from './owned-devices.ts';
export { OwnerCalls, type OwnerCallsOptions, type OwnerReply } from './owner-calls.ts';
export { clusterMigration } from './migration.ts';
export {
  clusterKysely,
  type AppKysely,
  type ClusterTables,
  type InstanceTable,
  type LeaseTable,
} from './tables.ts';
