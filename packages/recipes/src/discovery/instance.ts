/**
 * A service instance as Curator's service discovery (curator-x-discovery) describes one: the same ten fields,
 * with the same names and meaning, so an instance registered by zkts is read by Curator and back. A plain
 * readonly object; `serviceInstance()` fills in Curator's defaults (a random UUID id, the registration time).
 */
import { RecipeArgumentError } from '../errors.js';
import { checkArg, checkOptions, rules, type OptionRules } from '../internal/index.js';
import { buildUri, parseUriSpec, URI_SPEC, type UriSpec } from './uri-spec.js';

/**
 * How an instance's node lives (Curator's ServiceType): `DYNAMIC` an ephemeral node at
 * `<base>/<name>/<id>` (gone with the session; re-registered after a renewal), `DYNAMIC_SEQUENTIAL` the same
 * but ephemeral-sequential, `STATIC` and `PERMANENT` a persistent node. All four are removed on unregister and
 * close, as Curator does.
 */
export type ServiceType = 'DYNAMIC' | 'STATIC' | 'PERMANENT' | 'DYNAMIC_SEQUENTIAL';

export const SERVICE_TYPES: readonly ServiceType[] = ['DYNAMIC', 'STATIC', 'PERMANENT', 'DYNAMIC_SEQUENTIAL'];

/** One registered instance of a service: what Curator's `ServiceInstance<T>` holds, field for field. */
export interface ServiceInstance<T = unknown> {
  /** The service's name: the directory `<base>/<name>` its instances live in. */
  readonly name: string;
  /** Unique among the service's instances: the node's name. */
  readonly id: string;
  readonly address: string | null;
  readonly port: number | null;
  readonly sslPort: number | null;
  /** Whatever the application attaches, written through the discovery's PayloadCodec (JSON by default). */
  readonly payload: T | null;
  /** ms since the epoch (Java's `System.currentTimeMillis()`). */
  readonly registrationTimeUTC: number;
  readonly serviceType: ServiceType;
  readonly uriSpec: UriSpec | null;
  /** False: providers skip it. Written only with the `'full'` serialization (Curator's default leaves it out). */
  readonly enabled: boolean;
}

/** The fields of serviceInstance(): `name` is required, the rest default as Curator's builder does. */
export interface ServiceInstanceInit<T> {
  name: string;
  /** Default: a random UUID. */
  id?: string;
  /** Default: null (Curator picks a local IP; pass yours, e.g. from `os.networkInterfaces()`). */
  address?: string | null;
  port?: number | null;
  sslPort?: number | null;
  payload?: T | null;
  /** Default: `Date.now()`. */
  registrationTimeUTC?: number;
  /** Default `'DYNAMIC'`. */
  serviceType?: ServiceType;
  /** A template (`'{scheme}://{address}:{port}'`) or a parsed UriSpec. Default: none. */
  uriSpec?: string | UriSpec | null;
  /** Default true. */
  enabled?: boolean;
}

const INIT_RULES: OptionRules<ServiceInstanceInit<unknown>> = {
  name: rules.nodeName,
  id: rules.nodeName,
  address: rules.orNull(rules.string),
  port: rules.orNull(rules.int32),
  sslPort: rules.orNull(rules.int32),
  payload: { expect: 'anything', test: () => true },
  registrationTimeUTC: rules.integer(Number.MIN_SAFE_INTEGER),
  serviceType: rules.oneOf(SERVICE_TYPES),
  uriSpec: rules.orNull({ expect: `a template string or ${URI_SPEC.expect}`, test: (v) => typeof v === 'string' || URI_SPEC.test(v) }),
  enabled: rules.boolean,
};

/** A ServiceInstance with Curator's defaults for what `init` leaves out; throws RecipeArgumentError for bad fields. */
export function serviceInstance<T = unknown>(init: ServiceInstanceInit<T>): ServiceInstance<T> {
  checkArg('serviceInstance', 'init', init, rules.object);
  checkOptions('serviceInstance', init, INIT_RULES, 'init');
  checkArg('serviceInstance', 'init.name', init.name, INIT_RULES.name);
  const instance: ServiceInstance<T> = {
    name: init.name,
    id: init.id ?? globalThis.crypto.randomUUID(),
    address: init.address ?? null,
    port: init.port ?? null,
    sslPort: init.sslPort ?? null,
    payload: init.payload ?? null,
    registrationTimeUTC: init.registrationTimeUTC ?? Date.now(),
    serviceType: init.serviceType ?? 'DYNAMIC',
    uriSpec: typeof init.uriSpec === 'string' ? parseUriSpec(init.uriSpec) : (init.uriSpec ?? null),
    enabled: init.enabled ?? true,
  };
  checkInstance(instance);
  return instance;
}

/** The URI of an instance from its uriSpec (Curator's `buildUriSpec`); the empty string without one. */
export function instanceUri(instance: ServiceInstance<unknown>, variables: Readonly<Record<string, unknown>> = {}): string {
  checkArg('instanceUri', 'instance', instance, rules.object);
  checkArg('instanceUri', 'variables', variables, rules.object);
  return instance.uriSpec === null ? '' : buildUri(instance.uriSpec, instance, variables);
}

/** A service name or instance id: one path segment, as it becomes a node name. */
export function checkSegment(what: string, value: unknown): void {
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..' || value.includes('/') || value.includes('\u0000')) {
    throw new RecipeArgumentError(`${what} must be a non-empty node name without "/", got ${JSON.stringify(value)}`);
  }
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** A Java `Integer`: what Curator can read back into `port` and `sslPort`. */
export const isInt32 = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= INT32_MIN && (v as number) <= INT32_MAX;

/** Checks what the JSON can carry and Curator can read back; throws RecipeArgumentError naming the field. */
export function checkInstance(instance: ServiceInstance<unknown>): void {
  checkSegment('a service name', instance.name);
  checkSegment('an instance id', instance.id);
  const bad = (field: string, want: string, got: unknown): never => {
    throw new RecipeArgumentError(`service instance ${instance.id}: ${field} must be ${want}, got ${JSON.stringify(got)}`);
  };
  if (instance.address !== null && typeof instance.address !== 'string') bad('address', 'a string or null', instance.address);
  for (const field of ['port', 'sslPort'] as const) {
    const v = instance[field];
    if (v !== null && !isInt32(v)) bad(field, 'a 32-bit integer or null', v);
  }
  if (!Number.isSafeInteger(instance.registrationTimeUTC)) bad('registrationTimeUTC', 'an integer (ms)', instance.registrationTimeUTC);
  if (!SERVICE_TYPES.includes(instance.serviceType)) bad('serviceType', SERVICE_TYPES.join(' | '), instance.serviceType);
  if (typeof instance.enabled !== 'boolean') bad('enabled', 'a boolean', instance.enabled);
}
