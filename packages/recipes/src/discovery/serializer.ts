/**
 * The bytes of an instance node: Curator's JsonInstanceSerializer format, written in the same field order
 * (name, id, address, port, sslPort, payload, registrationTimeUTC, serviceType, uriSpec, then `enabled` in the
 * 'full' mode only) and read as tolerantly as Curator's Jackson mapper: unknown fields are ignored and a missing
 * field takes Curator's default. What cannot be an instance (not UTF-8, not JSON, larger than `maxBytes`, a field
 * of the wrong type) is an InstanceFormatError naming the field.
 *
 * The payload goes through a PayloadCodec. Jackson writes Curator's payloads with type information (the
 * `@JsonTypeInfo(use = CLASS)` on `getPayload()`): an object gets an `"@class"` member, an array is wrapped as
 * `["<java class>", [...]]`, scalars are written bare. The default codec reads all three and writes what Curator
 * can read back without knowing a class; `javaPayload(className)` writes the class for a typed Java payload.
 */
import { InstanceFormatError, RecipeArgumentError } from '../errors.js';
import { checkInstance, isInt32, SERVICE_TYPES, type ServiceInstance, type ServiceType } from './instance.js';
import type { UriSpec, UriSpecPart } from './uri-spec.js';
import { checkArg, checkOptions, rules, type OptionRules } from '../internal/index.js';

/** Turns a payload into the JSON value written as `"payload"` and back. A throw while reading is an InstanceFormatError. */
export interface PayloadCodec<T> {
  /** The JSON-serializable value to write (never called for a null payload). */
  toJson(payload: T): unknown;
  /** The payload from the parsed JSON value (never called for a null payload). */
  fromJson(json: unknown): T;
}

const JACKSON_CLASS = '@class';
/** The class Curator's Jackson reads a type-less list payload into. */
const JAVA_LIST = 'java.util.ArrayList';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The default payload codec: plain JSON values. Reading drops Jackson's type information (an object's `@class`,
 * an array's class wrapper: any two-element array whose first element is a string is taken for one), so a
 * Curator payload reads as its fields; writing wraps an array as a
 * `java.util.ArrayList` (Curator cannot read a bare array) and leaves objects without a class (Curator reads them
 * as a Map: use `javaPayload` for a typed Java payload).
 */
export const jsonPayload: PayloadCodec<unknown> = {
  toJson: (payload) => (Array.isArray(payload) ? [JAVA_LIST, payload] : payload),
  fromJson: (json) => {
    if (Array.isArray(json)) return json.length === 2 && typeof json[0] === 'string' ? json[1] : json;
    if (isObject(json) && typeof json[JACKSON_CLASS] === 'string') {
      const { [JACKSON_CLASS]: _class, ...fields } = json;
      return fields;
    }
    return json;
  },
};

/**
 * A payload that Curator reads as an object of the Java class `className` (a bean with these fields, e.g.
 * `com.example.InstanceDetails`): written with `"@class": className`, which is also required of what it reads
 * (another class is refused, as Curator's payload class check refuses it).
 */
export function javaPayload<T extends object>(className: string): PayloadCodec<T> {
  checkArg('javaPayload', 'className', className, rules.nonEmptyString);
  return {
    toJson: (payload) => ({ [JACKSON_CLASS]: className, ...payload }),
    fromJson: (json) => {
      if (!isObject(json)) throw new TypeError(`expected an object of ${className}, got ${JSON.stringify(json)}`);
      const { [JACKSON_CLASS]: cls, ...fields } = json;
      if (cls !== undefined && cls !== className) throw new TypeError(`expected ${className}, got ${String(cls)}`);
      return fields as T;
    },
  };
}

/** Turns instances into node data and back (Curator's InstanceSerializer). */
export interface InstanceSerializer<T> {
  /** The node data of an instance; throws RecipeArgumentError for what cannot be written. */
  serialize(instance: ServiceInstance<T>): Uint8Array;
  /** `path` only names the node in an error. */
  deserialize(bytes: Uint8Array, path?: string): ServiceInstance<T>;
}

/**
 * `'compatible'` (Curator's default, `new JsonInstanceSerializer(cls)`): no `enabled` field, for readers older
 * than CURATOR-275; registering a disabled instance is then refused rather than silently enabled.
 * `'full'` (`new JsonInstanceSerializer(cls, false)`): `enabled` is written too.
 */
export type InstanceSerialization = 'compatible' | 'full';

/** Options of a JsonInstanceSerializer. */
export interface JsonInstanceSerializerOptions<T> {
  /** Default `jsonPayload`. */
  payload?: PayloadCodec<T>;
  /** Default `'compatible'`, as Curator. */
  serialization?: InstanceSerialization;
  /** Larger node data is refused unread. Default 1 MiB (ZooKeeper's default jute.maxbuffer). */
  maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 1024 * 1024;

const OPTION_RULES: OptionRules<JsonInstanceSerializerOptions<unknown>> = {
  payload: rules.withMethods('a PayloadCodec', 'toJson', 'fromJson'),
  serialization: rules.oneOf(['compatible', 'full']),
  maxBytes: rules.integer(1, 2 ** 31 - 1),
};

/** Curator's JSON format of an instance (see the module comment); the default serializer of ServiceDiscovery. */
export class JsonInstanceSerializer<T = unknown> implements InstanceSerializer<T> {
  private readonly payload: PayloadCodec<T>;
  private readonly full: boolean;
  private readonly maxBytes: number;

  constructor(options: JsonInstanceSerializerOptions<T> = {}) {
    checkOptions('JsonInstanceSerializer', options, OPTION_RULES as OptionRules<JsonInstanceSerializerOptions<T>>);
    this.payload = options.payload ?? (jsonPayload as PayloadCodec<T>);
    this.full = (options.serialization ?? 'compatible') === 'full';
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  }

  /** Curator's JSON of `instance`, in its field order. */
  serialize(instance: ServiceInstance<T>): Uint8Array {
    checkArg('JsonInstanceSerializer.serialize', 'instance', instance, rules.object);
    checkInstance(instance);
    if (!this.full && !instance.enabled) {
      throw new RecipeArgumentError(`service instance ${instance.id} is disabled, but the 'compatible' serialization does not write "enabled": use serialization: 'full'`);
    }
    const json: Record<string, unknown> = {
      name: instance.name,
      id: instance.id,
      address: instance.address,
      port: instance.port,
      sslPort: instance.sslPort,
      payload: instance.payload === null ? null : this.payload.toJson(instance.payload),
      registrationTimeUTC: instance.registrationTimeUTC,
      serviceType: instance.serviceType,
      uriSpec: instance.uriSpec === null ? null : { parts: instance.uriSpec.parts.map((p) => ({ value: p.value, variable: p.variable })) },
    };
    if (this.full) json['enabled'] = instance.enabled;
    let text: string;
    try {
      text = JSON.stringify(json);
    } catch (e) {
      // A payload JSON cannot carry (a bigint, a cycle): the caller's mistake, said as such.
      throw new RecipeArgumentError(`service instance ${instance.id}: its payload is not JSON-serializable`, { cause: e });
    }
    const bytes = new TextEncoder().encode(text);
    if (bytes.length > this.maxBytes) {
      throw new RecipeArgumentError(`service instance ${instance.id} is ${bytes.length} bytes as JSON, more than maxBytes (${this.maxBytes})`);
    }
    return bytes;
  }

  /** The instance in `bytes`; InstanceFormatError (naming `path`) for anything else. */
  deserialize(bytes: Uint8Array, path?: string): ServiceInstance<T> {
    checkArg('JsonInstanceSerializer.deserialize', 'bytes', bytes, rules.bytes);
    if (path !== undefined) checkArg('JsonInstanceSerializer.deserialize', 'path', path, rules.string);
    const fail = (message: string, cause?: unknown): never => {
      throw new InstanceFormatError(message, { path, ...(cause === undefined ? {} : { cause }) });
    };
    if (bytes.length > this.maxBytes) fail(`${bytes.length} bytes, more than maxBytes (${this.maxBytes})`);
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch (e) {
      fail('not a JSON service instance', e);
    }
    if (!isObject(json)) return fail('not a JSON object');
    const field = <V>(key: string, fallback: V, ok: (v: unknown) => boolean, want: string): V => {
      if (!Object.hasOwn(json, key)) return fallback;
      const v = json[key];
      if (!ok(v)) fail(`"${key}" must be ${want}, got ${JSON.stringify(v)?.slice(0, 100)}`);
      return v as V;
    };
    const isString = (v: unknown): boolean => typeof v === 'string';
    const orNull = (ok: (v: unknown) => boolean) => (v: unknown) => v === null || ok(v);
    const rawPayload = Object.hasOwn(json, 'payload') ? json['payload'] : null;
    let payload: T | null = null;
    if (rawPayload !== null) {
      try {
        payload = this.payload.fromJson(rawPayload);
      } catch (e) {
        fail(`its payload was refused: ${e instanceof Error ? e.message : String(e)}`, e);
      }
    }
    return {
      name: field('name', '', isString, 'a string'),
      id: field('id', '', isString, 'a string'),
      address: field<string | null>('address', null, orNull(isString), 'a string or null'),
      port: field<number | null>('port', null, orNull(isInt32), 'a 32-bit integer or null'),
      sslPort: field<number | null>('sslPort', null, orNull(isInt32), 'a 32-bit integer or null'),
      payload,
      registrationTimeUTC: field('registrationTimeUTC', 0, Number.isSafeInteger, 'an integer (ms)'),
      serviceType: field<ServiceType>('serviceType', 'DYNAMIC', (v) => SERVICE_TYPES.includes(v as ServiceType), SERVICE_TYPES.join(' | ')),
      uriSpec: normalizeUriSpec(field<unknown>('uriSpec', null, orNull(isUriSpec), 'a uriSpec ({"parts":[{"value","variable"}]}) or null')),
      enabled: field('enabled', true, (v) => typeof v === 'boolean', 'a boolean'),
    };
  }
}

function isUriSpec(v: unknown): boolean {
  if (!isObject(v)) return false;
  const parts = v['parts'] ?? [];
  return Array.isArray(parts) && parts.every((p: unknown) => isObject(p) && typeof p['value'] === 'string' && typeof (p['variable'] ?? false) === 'boolean');
}

/** The UriSpec as the serializer returns it: parts with both fields, nothing else (isUriSpec allows defaults). */
function normalizeUriSpec(v: unknown): UriSpec | null {
  if (!isObject(v)) return null;
  const parts = (v['parts'] ?? []) as Record<string, unknown>[];
  return { parts: parts.map((p): UriSpecPart => ({ value: p['value'] as string, variable: (p['variable'] ?? false) as boolean })) };
}
